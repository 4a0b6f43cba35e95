// Attack (on privacy between clients): a tool's code throws after its call returned, with the
// call's arguments in its message. `tooldock mcp --http` sent that fault as a log entry to
// every connected client, so one client read what another had sent. Fix: the entry goes to the
// session whose call left the code running, and only there (stderr has it for the operator).
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, tempDir } from "../cli-process.js";
import { connectHttpClient, startMcpHttpChild } from "../mcp-http-child.js";

const LEAKS_LATER = `export default (pi) => ({
  name: "leaks_later",
  label: "Leaks later",
  description: "Throws after it returned, with its argument in the message.",
  parameters: pi.typebox.Type.Object({ secret: pi.typebox.Type.String() }),
  async execute(_id, params) {
    setImmediate(() => {
      throw new Error("left behind: " + params.secret);
    });
    return { content: [{ type: "text", text: "done" }] };
  },
});
`;

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(url: string) {
  const connected = await connectHttpClient(url);
  cleanups.push(() => connected.client.close());
  return connected;
}

describe("regression: a stray fault of one client's call reaches every client", () => {
  it("logs it to the caller's session only, and to stderr", async () => {
    const work = await tempDir({ "tools/leaks.mjs": LEAKS_LATER });
    cleanups.push(work.remove);
    const server = await startMcpHttpChild(["tools"], work.path);
    cleanups.push(async () => {
      server.kill();
      await server.exited;
    });
    const a = await connect(server.url);
    const b = await connect(server.url);
    const leak = async (client: typeof a, secret: string) => {
      await client.client.callTool({ name: "leaks_later", arguments: { secret } });
      // Each client's entries come in order on its own stream: its own fault after any earlier one.
      await expect.poll(() => client.logs.join("\n"), { timeout: 30_000 }).toContain(secret);
    };
    await leak(a, "alpha-secret");
    await leak(b, "beta-secret");
    await leak(a, "alpha-again");
    expect(b.logs.join("\n")).not.toContain("alpha-secret");
    expect(a.logs.join("\n")).not.toContain("beta-secret");
    expect(server.stderr()).toContain("alpha-secret");
    expect(server.stderr()).toContain("beta-secret");
  });
});
