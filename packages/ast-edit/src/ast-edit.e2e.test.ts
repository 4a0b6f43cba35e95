import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Session, type SessionEvent } from "@tooldock/runtime";
import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAstEditTool } from "./index.js";

// A host loop driven by a scripted "model": each turn the host builds the request from
// session.activeTools() and session.toolChoice(), the model answers with its next scripted
// call, and the host runs it through session.execute.

const SOURCES = {
  "src/greet.ts": "export function greet(name: string) {\n  console.log('hello', name);\n}\n",
  "src/main.ts": "import { greet } from './greet';\ngreet('world');\nconsole.log('done');\n",
  "src/styles.css": "body { color: red; }\n",
};
const REWRITTEN = {
  "src/greet.ts": "export function greet(name: string) {\n  logger.info('hello', name);\n}\n",
  "src/main.ts": "import { greet } from './greet';\ngreet('world');\nlogger.info('done');\n",
  "src/styles.css": SOURCES["src/styles.css"],
};
const LABEL = "AST Edit: 2 replacements in 2 files";
const AST_EDIT_CALL = {
  name: "ast_edit",
  params: { ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }] },
};

let cwd: string;
let session: Session;
let events: SessionEvent[];
let readFileCalls: number;
let turn: number;

interface Turn {
  offered: { tools: string[]; choice: ReturnType<Session["toolChoice"]> };
  result: AgentToolResult;
}

async function modelCalls(call: { name: string; params: unknown }): Promise<Turn> {
  const offered = { tools: session.activeTools().map((tool) => tool.name), choice: session.toolChoice() };
  const result = await session.execute({ toolCallId: `call-${++turn}`, ...call });
  return { offered, result };
}

const text = (result: AgentToolResult) =>
  result.content.map((block) => ("text" in block ? block.text : "")).join("");

async function filesOnDisk(): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.keys(SOURCES).map(async (path) => [path, await readFile(join(cwd, path), "utf8")] as const),
  );
  return Object.fromEntries(entries);
}

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "tooldock-ast-edit-e2e-"));
  for (const [path, source] of Object.entries(SOURCES)) {
    await mkdir(dirname(join(cwd, path)), { recursive: true });
    await writeFile(join(cwd, path), source);
  }
  session = new Session({ cwd });
  session.register(createAstEditTool({ cwd }), "@tooldock/ast-edit (built-in ast_edit)");
  readFileCalls = 0;
  session.register({
    name: "read_file",
    label: "Read file",
    description: "Reads a file",
    parameters: Type.Object({ path: Type.String() }),
    execute: async (_id, params) => {
      readFileCalls++;
      return textResult(await readFile(join(cwd, (params as { path: string }).path), "utf8"));
    },
  });
  events = [];
  session.subscribe((event) => events.push(event));
  turn = 0;
  await session.start();
});

afterEach(async () => {
  await session.dispose();
  await rm(cwd, { recursive: true, force: true });
});

/** The model previews the rewrite; the session must then force resolve and block other tools. */
async function previewAndTryToSkipResolve(): Promise<void> {
  const preview = await modelCalls(AST_EDIT_CALL);
  expect(preview.offered).toEqual({ tools: ["ast_edit", "read_file"], choice: "auto" });
  expect(preview.result.isError).toBeUndefined();
  expect(text(preview.result)).toContain("AST Edit preview: 2 replacements in 2 files");
  expect(text(preview.result)).toContain("-  console.log('hello', name);\n+  logger.info('hello', name);");
  expect(session.pending.list().map((record) => [record.label, record.sourceToolName])).toEqual([
    [LABEL, "ast_edit"],
  ]);
  expect(
    events.filter((event) => event.type === "reminder").map((event) => "text" in event && event.text),
  ).toEqual([expect.stringContaining(`resolve\` tool to apply or discard ${LABEL}`)]);
  expect(await filesOnDisk()).toEqual(SOURCES);

  const skipped = await modelCalls({ name: "read_file", params: { path: "src/main.ts" } });
  expect(skipped.offered.choice).toEqual({ type: "tool", name: "resolve" });
  expect(skipped.offered.tools).toContain("resolve");
  expect(skipped.result.isError).toBe(true);
  expect(text(skipped.result)).toContain(`the pending action "${LABEL}" is waiting`);
  expect(text(skipped.result)).toContain("Call `resolve` first");
  expect(readFileCalls).toBe(0);
}

describe("ast_edit in a Session, end to end", () => {
  it("previews, forces resolve, refuses another tool, then apply writes the rewrite to disk", async () => {
    await previewAndTryToSkipResolve();

    const applied = await modelCalls({
      name: "resolve",
      params: { action: "apply", reason: "use the logger" },
    });
    expect(applied.offered.choice).toEqual({ type: "tool", name: "resolve" });
    expect(applied.result.isError).toBeUndefined();
    expect(text(applied.result)).toBe(
      "Applied AST Edit: wrote 2 replacements in 2 files.\n- src/greet.ts: 1 replacement\n- src/main.ts: 1 replacement",
    );
    expect(await filesOnDisk()).toEqual(REWRITTEN);
    expect((await readdir(join(cwd, "src"))).sort()).toEqual(["greet.ts", "main.ts", "styles.css"]);
    expect(session.pending.hasPending).toBe(false);
    expect(session.toolChoice()).toBe("auto");

    const after = await modelCalls({ name: "read_file", params: { path: "src/main.ts" } });
    expect(after.offered.tools).toEqual(["ast_edit", "read_file"]);
    expect(text(after.result)).toBe(REWRITTEN["src/main.ts"]);
  });

  it("previews, then discard leaves every file untouched", async () => {
    await previewAndTryToSkipResolve();

    const discarded = await modelCalls({
      name: "resolve",
      params: { action: "discard", reason: "keep console" },
    });
    expect(discarded.result.isError).toBeUndefined();
    expect(text(discarded.result)).toBe(`Discarded: ${LABEL}. Reason: keep console`);
    expect(await filesOnDisk()).toEqual(SOURCES);
    expect(session.pending.hasPending).toBe(false);
    expect(session.toolChoice()).toBe("auto");
  });

  it("keeps the action pending when a file changed since the preview, and recovers by previewing again", async () => {
    await modelCalls(AST_EDIT_CALL);
    const staleId = session.pending.peek()?.id;
    const edited = "import { greet } from './greet';\ngreet('you');\nconsole.log('done');\n";
    await writeFile(join(cwd, "src/main.ts"), edited);

    const refused = await modelCalls({ name: "resolve", params: { action: "apply", reason: "go" } });
    expect(refused.result.isError).toBe(true);
    expect(text(refused.result)).toContain(`Apply failed for "${LABEL}"`);
    expect(text(refused.result)).toContain("src/main.ts changed since the preview. Nothing was written.");
    expect(session.pending.peek()?.id).toBe(staleId);
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });
    expect(await filesOnDisk()).toEqual({ ...SOURCES, "src/main.ts": edited });

    await modelCalls({ name: "resolve", params: { action: "discard", reason: "stale preview" } });
    await modelCalls(AST_EDIT_CALL);
    const applied = await modelCalls({
      name: "resolve",
      params: { action: "apply", reason: "fresh preview" },
    });
    expect(applied.result.isError).toBeUndefined();
    expect(await readFile(join(cwd, "src/main.ts"), "utf8")).toBe(
      "import { greet } from './greet';\ngreet('you');\nlogger.info('done');\n",
    );
  });

  it("lets the session reject invalid arguments before ast_edit runs", async () => {
    const invalid = await modelCalls({ name: "ast_edit", params: { ops: [{ pat: "", out: "x" }] } });
    expect(invalid.result.isError).toBe(true);
    expect(text(invalid.result)).toContain('Invalid arguments for tool "ast_edit"');
    expect(text(invalid.result)).toContain("- /ops/0/pat: ");
    expect(session.pending.hasPending).toBe(false);
  });
});
