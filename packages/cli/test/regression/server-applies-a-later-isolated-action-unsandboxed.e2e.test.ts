import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";
import { startInspectProcess } from "../inspect-browser.js";
import { startMcpChild } from "../mcp-child.js";

// server-applies-a-later-isolated-action-unsandboxed: `tooldock mcp --store` started on an
// empty session loads its tools in its own process; `tooldock call --isolate --store` then
// staged an action there with a tool the user does not trust, the server read it before the
// client's next call, and the client's `resolve` ran its handler in the server's process,
// unsandboxed. Such a server now refuses to resolve it, and says how to: a restart (which
// loads the tools in a tool host) or `tooldock pending`.
const TOOLS = `import { writeFileSync } from "node:fs";
import { join } from "node:path";

export default (pi) => [
  {
    name: "stage_write",
    label: "Stage a write",
    description: "Stages the writing of out.txt in the working folder",
    parameters: pi.typebox.Type.Object({}),
    actions: {
      write: {
        async apply(payload, _reason, ctx) {
          writeFileSync(join(ctx.cwd, payload.file), "written\\n");
          return { content: [{ type: "text", text: "wrote " + payload.file }] };
        },
      },
    },
    async execute() {
      pi.pushPendingAction({ label: "Write out.txt", handler: "write", payload: { file: "out.txt" } });
      return { content: [{ type: "text", text: "would write out.txt" }] };
    },
  },
];
`;

let work: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let store = "";
let env: Record<string, string> = {};

beforeAll(assertBuilt);
beforeEach(async () => {
  work = await tempDir({ "tools/tools.mjs": TOOLS });
  home = await tempDir({});
  await mkdir(join(home.path, "state"), { mode: 0o700 });
  store = `sqlite:${join(home.path, "state", "pending.db")}`;
  env = { HOME: home.path, TOOLDOCK_CACHE_DIR: join(home.path, "cache") };
});
afterEach(async () => {
  await work.remove();
  await home.remove();
});

const cli = (...args: string[]) => runCli(args, { cwd: work.path, env });

describe("server-applies-a-later-isolated-action-unsandboxed", { timeout: 60_000 }, () => {
  it("mcp --store refuses to resolve an action staged in a tool host after it loaded in-process", async () => {
    const server = await startMcpChild(["--store", store, "tools"], work.path, env);
    onTestFinished(server.kill);
    await server.client.listTools();
    const staged = await cli("call", "stage_write", "tools", "--isolate", "--store", store);
    expect(staged.code, staged.stderr).toBe(0);
    for (const action of ["apply", "discard"]) {
      const refused = await server.client.callTool({ name: "resolve", arguments: { action, reason: "ok" } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused)).toContain("was staged by a tool in a tool host (--isolate)");
      expect(JSON.stringify(refused)).toContain("tooldock pending");
    }
    expect(existsSync(join(work.path, "out.txt"))).toBe(false);
    server.closeStdin();
    expect(await server.exited).toBe(0);
    const listed = await cli("pending", "list", "--store", store);
    expect(listed.stdout).toContain("Write out.txt");
  });

  it("mcp --store --no-isolate resolves it in this process, as the user asked", async () => {
    const server = await startMcpChild(["--store", store, "tools", "--no-isolate"], work.path, env);
    onTestFinished(server.kill);
    await server.client.listTools();
    expect((await cli("call", "stage_write", "tools", "--isolate", "--store", store)).code).toBe(0);
    const applied = await server.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "ok" },
    });
    expect(JSON.stringify(applied)).toContain("wrote out.txt");
    server.closeStdin();
    expect(await server.exited).toBe(0);
  });

  it("inspect --store refuses the page's Apply of it the same way", async () => {
    const server = await startInspectProcess(work.path, ["tools", "--store", store], env);
    onTestFinished(async () => {
      expect(await server.stop()).toBe(0);
    });
    expect((await cli("call", "stage_write", "tools", "--isolate", "--store", store)).code).toBe(0);
    const url = new URL(server.url);
    const token = new URLSearchParams(url.hash.slice(1)).get("token") ?? "";
    const response = await fetch(new URL("/api/resolve", url), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ action: "apply", reason: "ok" }),
    });
    const answer = JSON.stringify(await response.json());
    expect(answer).toContain("was staged by a tool in a tool host (--isolate)");
    expect(existsSync(join(work.path, "out.txt"))).toBe(false);
  });
});
