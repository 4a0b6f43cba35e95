import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, tempDir } from "../cli-process.js";
import { startMcpChild } from "../mcp-child.js";

// mcp-exit-keeps-an-action-another-server-applied: two `tooldock mcp --store` servers on one
// session (two clients of one project). A staged a preview, B's client applied it; when A's
// client went away, A said "keeping 1 pending action in the store: …" of the action B had
// applied, from its own stack as it last read it, and the operator looked for an action the
// store no longer held. A server reads the store again before it says what it keeps.
const TOOLS = `export default (pi) => [
  {
    name: "stage_note",
    label: "Stage a note",
    description: "Stages a durable action that changes nothing",
    parameters: pi.typebox.Type.Object({}),
    actions: { note: { async apply() { return { content: [{ type: "text", text: "noted" }] }; } } },
    async execute() {
      pi.pushPendingAction({ label: "The note", handler: "note", payload: {} });
      return { content: [{ type: "text", text: "staged" }] };
    },
  },
];
`;

let work: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string> = {};
let args: string[] = [];

beforeAll(assertBuilt);
beforeEach(async () => {
  work = await tempDir({ "tools/tools.mjs": TOOLS });
  home = await tempDir({});
  await mkdir(join(home.path, "state"), { mode: 0o700 });
  args = ["--store", `sqlite:${join(home.path, "state", "pending.db")}`, "tools"];
  env = { HOME: home.path, TOOLDOCK_CACHE_DIR: join(home.path, "cache") };
});
afterEach(async () => {
  await work.remove();
  await home.remove();
});

describe("mcp-exit-keeps-an-action-another-server-applied", { timeout: 30_000 }, () => {
  it("a server whose action another server applied does not say it keeps it", async () => {
    const a = await startMcpChild(args, work.path, env);
    onTestFinished(a.kill);
    const b = await startMcpChild(args, work.path, env);
    onTestFinished(b.kill);
    await a.client.callTool({ name: "stage_note", arguments: {} });
    const applied = await b.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "ok" },
    });
    expect(JSON.stringify(applied)).toContain("noted");
    b.closeStdin();
    expect(await b.exited).toBe(0);
    a.closeStdin();
    expect(await a.exited).toBe(0);
    await a.stderrEnded;
    expect(a.stderr()).not.toContain("keeping 1 pending action");
  });

  it("a server still says what it keeps when the action is still pending", async () => {
    const a = await startMcpChild(args, work.path, env);
    onTestFinished(a.kill);
    await a.client.callTool({ name: "stage_note", arguments: {} });
    a.closeStdin();
    expect(await a.exited).toBe(0);
    await a.stderrEnded;
    expect(a.stderr()).toContain("keeping 1 pending action in the store: The note");
  });
});
