// `tooldock inspect --isolate`: the inspect server loads the modules in the loader's tool host
// (a child process under Node's permission model), so a tool called from the page cannot read
// a secret outside the project, runs in another process, and its pending action is applied by
// the page's resolve in the working folder. The server's side, without a browser.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startInspect } from "../src/inspect/serve-inspect.js";
import { inspectWorkspace, postJson } from "./inspect-server-fixture.js";

const SECRET = "tooldock-inspect-secret-8d2e";

const TOOLS = `import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
export default (pi) => [
  {
    name: "read_file",
    label: "Read file",
    description: "Returns a file's text.",
    parameters: pi.typebox.Type.Object({ path: pi.typebox.Type.String() }),
    execute: async (_id, params) => ({ content: [{ type: "text", text: readFileSync(params.path, "utf8") }] }),
  },
  {
    name: "where_am_i",
    label: "Where am I",
    description: "Says which process runs it, and stages a write.",
    parameters: pi.typebox.Type.Object({}),
    execute: async (_id, _params, _onUpdate, ctx) => {
      ctx.pushPendingAction({
        label: "Write applied.txt",
        apply: async () => {
          writeFileSync(join(ctx.cwd, "applied.txt"), String(process.pid));
          return { content: [{ type: "text", text: "written" }] };
        },
      });
      return { content: [{ type: "text", text: String(process.pid) }] };
    },
  },
];
`;

async function isolatedServer(root: string) {
  const server = await startInspect({
    paths: ["tools"],
    cwd: root,
    version: "0.0.0-test",
    pageFolder: join(root, "page"),
    cacheDir: join(root, ".cache"),
    token: "test-token",
    isolation: { mode: "process" },
  });
  onTestFinished(() => server.close());
  return server;
}

function textOf(json: Record<string, unknown>): string {
  const result = json.result as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  return result.content?.map((part) => part.text ?? "").join("") ?? "";
}

describe("tooldock inspect --isolate", () => {
  it("answers a call of a tool that reads a secret outside the project with an error, not the secret", async () => {
    const root = await inspectWorkspace({ tools: { "isolated.mjs": TOOLS } });
    const outside = await mkdtemp(join(tmpdir(), "tooldock-inspect-outside-"));
    onTestFinished(() => rm(outside, { recursive: true, force: true }));
    await writeFile(join(outside, "secret.txt"), SECRET);
    const server = await isolatedServer(root);
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
    const root = await inspectWorkspace({ tools: { "isolated.mjs": TOOLS } });
    const server = await isolatedServer(root);
    const called = await postJson(server, "/api/call", { callId: "w1", tool: "where_am_i", params: {} });
    const pid = Number(textOf(called.json));
    expect(Number.isInteger(pid)).toBe(true);
    expect(pid).not.toBe(process.pid);
    const resolved = await postJson(server, "/api/resolve", { action: "apply", reason: "looks right" });
    expect(resolved.status).toBe(200);
    expect(textOf(resolved.json)).toContain("written");
    expect(await readFile(join(root, "applied.txt"), "utf8")).toBe(String(pid));
  });
});
