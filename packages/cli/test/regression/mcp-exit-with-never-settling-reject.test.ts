// End to end: the BUILT `tooldock mcp` (build first: pnpm build).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";
import { workFolder } from "../memory-io.js";

// Attack: a tool stages an action whose `reject` never settles (and its shutdown hook never
// settles either), and the module keeps a timer running. When the client went away,
// `tooldock mcp` waited for the reject forever: the server never exited.
const MODULE = `export default (pi) => {
  setInterval(() => {}, 1000);
  return {
    name: "stage_forever",
    label: "Stage forever",
    description: "Stages an action whose reject never settles.",
    parameters: pi.typebox.Type.Object({}),
    onSession: (event) => (event.reason === "shutdown" ? new Promise(() => {}) : undefined),
    execute: async () => {
      pi.pushPendingAction({
        label: "never discarded",
        apply: async () => ({ content: [{ type: "text", text: "applied" }] }),
        reject: () => new Promise(() => {}),
      });
      return { content: [{ type: "text", text: "staged" }] };
    },
  };
};
`;

beforeAll(assertBuilt);

describe("tooldock mcp when the client goes away and callbacks never settle", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  let kill = () => {};

  beforeEach(async () => {
    folder = await workFolder({ "tools/forever.mjs": MODULE });
  });
  afterEach(async () => {
    kill();
    await folder.remove();
  });

  it("exits 0 after a bounded wait, saying what it did not wait for", async () => {
    const server = await startMcpChild(["tools"], folder.path, folder.env);
    kill = server.kill;
    const staged = await server.client.callTool({ name: "stage_forever", arguments: {} });
    expect(staged.isError).toBeFalsy();
    server.closeStdin();
    // The bound is 5 s; the test's own timeout (30 s) is the "never".
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain("discarding 1 pending action: never discarded");
    expect(server.stderr()).toContain("did not finish within 5000 ms");
  });
});
