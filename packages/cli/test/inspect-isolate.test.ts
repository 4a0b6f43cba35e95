// `tooldock inspect --isolate`: the inspect server loads the modules in the loader's tool host
// (a child process under Node's permission model), so a tool called from the page cannot read
// a secret outside the project, runs in another process, and its pending action is applied by
// the page's resolve in the working folder. The server's side, without a browser.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { inspectWorkspace, postJson, startTestServer } from "./inspect-server-fixture.js";
import { READ_FILE, WHERE } from "./isolation-tools.js";

const SECRET = "tooldock-inspect-secret-8d2e";

function textOf(json: Record<string, unknown>): string {
  const result = json.result as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  return result.content?.map((part) => part.text ?? "").join("") ?? "";
}

describe("tooldock inspect --isolate", () => {
  it("answers a call of a tool that reads a secret outside the project with an error, not the secret", async () => {
    const root = await inspectWorkspace({ tools: { "read-file.mjs": READ_FILE, "where.mjs": WHERE } });
    const outside = await mkdtemp(join(tmpdir(), "tooldock-inspect-outside-"));
    onTestFinished(() => rm(outside, { recursive: true, force: true }));
    await writeFile(join(outside, "secret.txt"), SECRET);
    const server = await startTestServer(root, { isolation: { mode: "process" } });
    expect(server.tools).toContain("read_file");
    const answer = await postJson(server, "/api/call", {
      callId: "r1",
      tool: "read_file",
      params: { path: join(outside, "secret.txt") },
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.json)).not.toContain(SECRET);
    expect((answer.json.result as { isError?: boolean }).isError).toBe(true);
    expect(textOf(answer.json)).toMatch(/Access to this API has been restricted|ERR_ACCESS_DENIED/);
  });

  it("runs the tool in another process and applies its pending action through the page's resolve", async () => {
    const root = await inspectWorkspace({ tools: { "read-file.mjs": READ_FILE, "where.mjs": WHERE } });
    const server = await startTestServer(root, { isolation: { mode: "process" } });
    const called = await postJson(server, "/api/call", { callId: "w1", tool: "where_am_i", params: {} });
    const pid = (JSON.parse(textOf(called.json)) as { pid: number }).pid;
    expect(Number.isInteger(pid)).toBe(true);
    expect(pid).not.toBe(process.pid);
    const resolved = await postJson(server, "/api/resolve", { action: "apply", reason: "looks right" });
    expect(resolved.status).toBe(200);
    expect(textOf(resolved.json)).toContain("written");
    expect(await readFile(join(root, "applied.txt"), "utf8")).toBe(String(pid));
  });

  // inspect always watches: closing the watcher first ended the tool host, and the action staged
  // there was lost at shutdown without its reject (mcp --watch --isolate did the same).
  it("watch-isolate-shutdown-drops-pending-rejects: discards what is pending through its reject on close", async () => {
    const root = await inspectWorkspace({ tools: { "stage.mjs": REJECT_WRITER } });
    const server = await startTestServer(root, { isolation: { mode: "process" } });
    const called = await postJson(server, "/api/call", { callId: "s1", tool: "stage", params: {} });
    expect(textOf(called.json)).toBe("staged");
    await server.close();
    expect(await readFile(join(root, "rejected.txt"), "utf8")).toBe("rejected");
  });
});

/** Stages an action whose reject writes `rejected.txt` into the working folder. */
const REJECT_WRITER = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default (pi) => ({
  name: "stage",
  label: "Stage",
  description: "Stages an action",
  parameters: pi.typebox.Type.Object({}),
  execute: async (_id, _params, _onUpdate, ctx) => {
    ctx.pushPendingAction({
      label: "Write a file",
      apply: async () => ({ content: [{ type: "text", text: "applied" }] }),
      reject: async () => { writeFileSync(join(ctx.cwd, "rejected.txt"), "rejected"); },
    });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;
