import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type {
  AgentToolResult,
  CustomTool,
  CustomToolContext,
  CustomToolDurableAction,
  CustomToolPendingAction,
} from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AstEditToolOptions, createAstEditTool } from "./ast-edit-tool.js";
import type { AstEditParameters } from "./parameters.js";

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "tooldock-ast-edit-tool-"));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [relativePath, text] of Object.entries(files)) {
    await mkdir(dirname(join(cwd, relativePath)), { recursive: true });
    await writeFile(join(cwd, relativePath), text);
  }
}

const read = (relativePath: string) => readFile(join(cwd, relativePath), "utf8");

/**
 * What a Session makes of the durable action a preview stages: the payload as a durable store
 * keeps it (a JSON copy), applied by the tool's `rewrite` handler; `retry` applies it again as
 * the same action, `elsewhere` as another process would (from the JSON, without this process's
 * retries).
 */
interface Staged extends CustomToolDurableAction {
  apply(reason: string): Promise<AgentToolResult<unknown>>;
}

function staged(tool: CustomTool, action: CustomToolDurableAction, actionId: string): Staged {
  const payload = JSON.parse(JSON.stringify(action.payload)) as unknown;
  const handler = tool.actions?.[action.handler];
  if (handler === undefined) throw new Error(`ast_edit declares no handler ${action.handler}`);
  const context = { sessionId: "test", cwd, actionId, label: action.label };
  return { ...action, apply: (reason) => handler.apply(payload, reason, context) };
}

/** A context that collects what ast_edit stages, like a Session would. */
function collectingContext(tool: () => CustomTool) {
  const actions: Staged[] = [];
  const ctx = {
    sessionId: "test",
    cwd,
    hasPendingActions: () => actions.length > 0,
    abort: () => {},
    pushPendingAction: (action: CustomToolDurableAction) =>
      actions.push(staged(tool(), action, `action-${actions.length + 1}`)),
  };
  return { actions, ctx };
}

/** Runs ast_edit with a context that collects what it pushes, like a Session would. */
async function preview(params: unknown, options: Partial<AstEditToolOptions> = {}) {
  const tool = createAstEditTool({ cwd, ...options });
  const { actions, ctx } = collectingContext(() => tool);
  const result = await tool.execute("call-1", params as AstEditParameters, undefined, ctx);
  return { result, actions, tool };
}

const text = (result: AgentToolResult<unknown>) =>
  result.content.map((block) => ("text" in block ? block.text : "")).join("");

const LOGS = {
  "src/a.ts": "export function a() {\n  console.log('a', 1);\n  console.log('b');\n}\n",
  "src/b.ts": "console.log(b);\n",
  "src/c.ts": "export const c = 3;\n",
};
const LOG_TO_LOGGER = { ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }] };

describe("ast_edit preview", () => {
  it("shows a per-file unified diff and the totals, stages the exact label and writes nothing", async () => {
    await write(LOGS);
    const { result, actions } = await preview(LOG_TO_LOGGER);

    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain("AST Edit preview: 3 replacements in 2 files (3 files scanned).");
    expect(text(result)).toContain(
      "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,4 +1,4 @@\n export function a() {\n-  console.log('a', 1);\n-  console.log('b');\n+  logger.info('a', 1);\n+  logger.info('b');\n }",
    );
    expect(text(result)).toContain(
      "--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1,1 +1,1 @@\n-console.log(b);\n+logger.info(b);",
    );
    expect(text(result)).not.toContain("src/c.ts");

    expect(actions).toHaveLength(1);
    expect(actions[0]?.label).toBe("AST Edit: 3 replacements in 2 files");
    // A durable action: the `rewrite` handler and the plan as JSON data (what a store keeps).
    expect(actions[0]?.handler).toBe("rewrite");
    expect(actions[0]?.payload).toMatchObject({
      version: 1,
      cwd,
      operations: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }],
      files: [
        { relativePath: "src/a.ts", language: "typescript", original: LOGS["src/a.ts"] },
        { relativePath: "src/b.ts", language: "typescript", original: LOGS["src/b.ts"] },
      ],
    });
    expect(actions[0]?.details).toMatchObject({
      replacements: 3,
      files: [
        { path: "src/a.ts", replacements: 2, diff: expect.stringContaining("+  logger.info('b');") },
        { path: "src/b.ts", replacements: 1, diff: expect.stringContaining("+logger.info(b);") },
      ],
    });
    expect(result.details).toMatchObject({
      pendingLabel: "AST Edit: 3 replacements in 2 files",
      scannedFiles: 3,
    });
    for (const [path, original] of Object.entries(LOGS)) expect(await read(path)).toBe(original);
  });

  it("says No replacements made and stages nothing when no pattern matches", async () => {
    await write(LOGS);
    const { result, actions } = await preview({ ops: [{ pat: "console.warn($$$A)", out: "x($$$A)" }] });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toMatch(
      /^No replacements made: no pattern matched in 3 files under the working directory\./,
    );
    expect(actions).toHaveLength(0);
  });

  it("says No replacements made when no file fits path, glob and lang", async () => {
    await write(LOGS);
    const { result, actions } = await preview({ ...LOG_TO_LOGGER, path: "src", glob: "*.css" });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toMatch(
      /^No replacements made: found no ts, tsx, js, jsx, html or css file under src/,
    );
    expect(actions).toHaveLength(0);
  });

  it("stops at limit, counting across files in path order", async () => {
    await write({ "a.ts": "f(1); f(2);\n", "b.ts": "f(3);\n" });
    const { result, actions } = await preview({ ops: [{ pat: "f($A)", out: "g($A)" }], limit: 1 });
    expect(actions[0]?.label).toBe("AST Edit: 1 replacement in 1 file");
    expect(text(result)).toContain("Stopped at the limit of 1 replacement; more matches may remain.");
    expect(text(result)).toContain("-f(1); f(2);\n+g(1); f(2);");
    await actions[0]?.apply("limited");
    expect(await read("a.ts")).toBe("g(1); f(2);\n");
    expect(await read("b.ts")).toBe("f(3);\n");
  });

  it("runs several ops in order and counts each", async () => {
    await write({ "a.ts": "var x = 1;\nold(x);\n", "b.js": "old(2);\n" });
    const { result, actions } = await preview({
      ops: [
        { pat: "var $N = $V;", out: "let $N = $V;" },
        { pat: "old($A)", out: "renewed($A)" },
      ],
    });
    expect(actions[0]?.label).toBe("AST Edit: 3 replacements in 2 files");
    expect(text(result)).toContain("ops[0] `var $N = $V;` -> `let $N = $V;`: 1 replacement\n");
    expect(text(result)).toContain("ops[1] `old($A)` -> `renewed($A)`: 2 replacements");
    await actions[0]?.apply("both");
    expect(await read("a.ts")).toBe("let x = 1;\nrenewed(x);\n");
    expect(await read("b.js")).toBe("renewed(2);\n");
  });

  it("leaves diffs past maxDiffCharacters out of the text but keeps them in details", async () => {
    await write(LOGS);
    const { result } = await preview(LOG_TO_LOGGER, { maxDiffCharacters: 200 });
    expect(text(result)).toContain("src/a.ts: 2 replacements");
    expect(text(result)).not.toContain("--- a/src/b.ts");
    expect(text(result)).toContain("1 more file diff left out");
    expect(result.details?.files[1]?.diff).toContain("+logger.info(b);");
  });
});

describe("ast_edit errors", () => {
  it("needs a way to stage the preview: a Session context or the pushPendingAction option", async () => {
    await write(LOGS);
    const tool = createAstEditTool({ cwd });
    // A host that calls the tool outside a Session and gives a context without the method.
    const bareContext = {
      sessionId: "s",
      cwd,
      hasPendingActions: () => false,
      abort: () => {},
    } as unknown as CustomToolContext;
    const refused = await tool.execute("1", LOG_TO_LOGGER, undefined, bareContext);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^ast_edit must run inside a Tooldock Session/);

    const pushed: CustomToolPendingAction[] = [];
    const wired = createAstEditTool({ cwd, pushPendingAction: (action) => pushed.push(action) });
    const result = await wired.execute("2", LOG_TO_LOGGER, undefined, bareContext);
    expect(result.isError).toBeUndefined();
    expect(pushed.map((action) => action.label)).toEqual(["AST Edit: 3 replacements in 2 files"]);
  });

  it.each([
    ["an empty pattern", { ops: [{ pat: "", out: "x" }] }, /Invalid ast_edit arguments: \/ops\/0\/pat/],
    ["no ops", { ops: [] }, /Invalid ast_edit arguments: \/ops/],
    [
      "an unsupported lang",
      { ...LOG_TO_LOGGER, lang: "python" },
      /does not support lang "python"\. Use one of typescript, ts/,
    ],
    ["a path outside cwd", { ...LOG_TO_LOGGER, path: "../elsewhere" }, /is outside the working directory/],
    [
      "a pattern of several nodes",
      { ops: [{ pat: "a; b", out: "c" }] },
      /ops\[0\]\.pat is not a usable TypeScript pattern: Multiple AST nodes.*call ast_edit again/,
    ],
  ])("turns %s into an error result and stages nothing", async (_case, params, message) => {
    await write(LOGS);
    const { result, actions } = await preview(params);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
    expect(actions).toHaveLength(0);
  });

  it("reports a host whose pushPendingAction throws, without crashing", async () => {
    await write(LOGS);
    const message = "Pending action store unavailable for custom tools in this runtime.";
    const { result } = await preview(LOG_TO_LOGGER, {
      pushPendingAction: () => {
        throw new Error(message);
      },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `ast_edit failed: ${message}. Nothing was changed or staged; check path and patterns and try again.`,
    );
  });

  it("answers an aborted call with an error result and stages nothing", async () => {
    await write(LOGS);
    const actions: CustomToolPendingAction[] = [];
    const tool = createAstEditTool({ cwd, pushPendingAction: (action) => actions.push(action) });
    const controller = new AbortController();
    controller.abort();
    const ctx: CustomToolContext = {
      sessionId: "s",
      cwd,
      hasPendingActions: () => false,
      abort: () => {},
      pushPendingAction: () => {},
    };
    const result = await tool.execute("1", LOG_TO_LOGGER, undefined, ctx, controller.signal);
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toBe("ast_edit was aborted before it finished. Nothing was changed.");
    expect(actions).toHaveLength(0);
  });

  it("reports a pattern with a syntax error that matched nothing as an error", async () => {
    await write(LOGS);
    const { result, actions } = await preview({ ops: [{ pat: "console.log(($A)", out: "x" }] });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("No replacements made");
    expect(text(result)).toMatch(
      /ops\[0\]\.pat matched nothing and does not parse as TypeScript \(syntax error/,
    );
    expect(actions).toHaveLength(0);
  });
});

describe("ast_edit apply", () => {
  it("writes the rewrite, reports what it wrote and leaves no temporary files", async () => {
    await write(LOGS);
    const { actions } = await preview(LOG_TO_LOGGER);
    const applied = await actions[0]?.apply("switch to the logger");
    expect(text(applied as AgentToolResult<unknown>)).toBe(
      "Applied AST Edit: wrote 3 replacements in 2 files.\n- src/a.ts: 2 replacements\n- src/b.ts: 1 replacement",
    );
    expect(applied?.details).toEqual({
      reason: "switch to the logger",
      replacements: 3,
      files: [
        { path: "src/a.ts", replacements: 2 },
        { path: "src/b.ts", replacements: 1 },
      ],
    });
    expect(await read("src/a.ts")).toBe(
      "export function a() {\n  logger.info('a', 1);\n  logger.info('b');\n}\n",
    );
    expect(await read("src/b.ts")).toBe("logger.info(b);\n");
    expect(await read("src/c.ts")).toBe(LOGS["src/c.ts"]);
    expect((await readdir(join(cwd, "src"))).sort()).toEqual(["a.ts", "b.ts", "c.ts"]);
  });

  it("refuses when a previewed file changed since the preview, names it and writes nothing", async () => {
    await write(LOGS);
    const { actions } = await preview(LOG_TO_LOGGER);
    await writeFile(join(cwd, "src/b.ts"), "console.log(b, 'edited');\n");
    await expect(actions[0]?.apply("go")).rejects.toMatchObject({
      code: "E_AST_EDIT_STALE",
      message: expect.stringMatching(
        /^Cannot apply AST Edit: src\/b\.ts changed since the preview\. Nothing was written\. Call resolve with action "discard".*call ast_edit again/,
      ),
    });
    expect(await read("src/a.ts")).toBe(LOGS["src/a.ts"]);
    expect(await read("src/b.ts")).toBe("console.log(b, 'edited');\n");
  });

  it("refuses when a previewed file was removed", async () => {
    await write(LOGS);
    const { actions } = await preview(LOG_TO_LOGGER);
    await rm(join(cwd, "src/a.ts"));
    await expect(actions[0]?.apply("go")).rejects.toThrow(/src\/a\.ts was removed since the preview/);
    expect(await read("src/b.ts")).toBe(LOGS["src/b.ts"]);
  });

  it("restores files already written when a later write fails, and can be applied again", async () => {
    await write(LOGS);
    let failNextRename = true;
    const { actions } = await preview(LOG_TO_LOGGER, {
      fileSystem: {
        rename: async (from, to) => {
          if (String(to).endsWith("b.ts") && failNextRename) {
            failNextRename = false;
            throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
          }
          const { rename } = await import("node:fs/promises");
          return rename(from, to);
        },
      },
    });
    await expect(actions[0]?.apply("go")).rejects.toMatchObject({
      code: "E_AST_EDIT_WRITE",
      message: expect.stringContaining(
        "writing src/b.ts failed: ENOSPC: no space left on device. Nothing was changed (1 file already written was restored).",
      ),
    });
    expect(await read("src/a.ts")).toBe(LOGS["src/a.ts"]);
    expect(await read("src/b.ts")).toBe(LOGS["src/b.ts"]);
    expect((await readdir(join(cwd, "src"))).sort()).toEqual(["a.ts", "b.ts", "c.ts"]);

    await actions[0]?.apply("retry");
    expect(await read("src/b.ts")).toBe("logger.info(b);\n");
  });
});

describe("ast_edit's durable action (the plan as JSON data)", () => {
  it("is applied by another ast_edit, as another process would, from the JSON its preview staged", async () => {
    await write(LOGS);
    const { actions } = await preview(LOG_TO_LOGGER);
    const [action] = actions as [Staged];
    // Another process's tool, set up for another folder: the action keeps the folder it was planned in.
    const elsewhere = createAstEditTool({ cwd: tmpdir() });
    const applied = await staged(elsewhere, action, "action-1").apply("from another process");
    expect(text(applied as AgentToolResult<unknown>)).toContain(
      "Applied AST Edit: wrote 3 replacements in 2 files.",
    );
    expect(await read("src/b.ts")).toBe("logger.info(b);\n");
    expect(await read("src/a.ts")).toContain("logger.info('a', 1);");
  });

  it("refuses a staged rewrite it cannot read (another version of ast_edit, or changed in the store) and writes nothing", async () => {
    await write(LOGS);
    const { actions, tool } = await preview(LOG_TO_LOGGER);
    const [action] = actions as [Staged];
    const changed = { ...action, payload: { ...(action.payload as object), version: 2 } };
    await expect(staged(tool, changed, "action-2").apply("go")).rejects.toMatchObject({
      code: "E_AST_EDIT_STALE",
      message: expect.stringMatching(
        /^Cannot apply AST Edit: the staged rewrite is not one ast_edit can read \(\/version: .*\); .*Nothing was written\. Call resolve with action "discard"/,
      ),
    });
    for (const [path, original] of Object.entries(LOGS)) expect(await read(path)).toBe(original);
  });
});

describe("ast_edit crash recovery", () => {
  const TEMP = "src/.b.ts.0123456789ab.tooldock-tmp";
  let stateDirectory: string;

  beforeEach(async () => {
    stateDirectory = await mkdtemp(join(tmpdir(), "tooldock-ast-edit-state-"));
  });

  afterEach(async () => {
    await rm(stateDirectory, { recursive: true, force: true });
  });

  /** What a SIGKILLed apply leaves after its commit: b.ts staged but not renamed yet. */
  async function interruptedApply(): Promise<void> {
    await write({ ...LOGS, [TEMP]: "logger.info(b);\n" });
    const { hashContent } = await import("./hash-content.js");
    const { openJournalFolder } = await import("./journal-folder.js");
    const { hostTag, writeJournal } = await import("./apply-journal.js");
    const { resolveFileSystem } = await import("./file-system.js");
    const realCwd = await realpath(cwd);
    const files = [
      {
        path: join(realCwd, "src/b.ts"),
        temporaryPath: join(realCwd, TEMP),
        beforeHash: hashContent(Buffer.from(LOGS["src/b.ts"])),
        afterHash: hashContent(Buffer.from("logger.info(b);\n")),
      },
    ];
    const fileSystem = resolveFileSystem();
    const journals = await openJournalFolder(fileSystem, stateDirectory, { create: true });
    if (journals.kind !== "ready") throw new Error("no journal folder");
    // Above the default Linux pid_max (2^22), so no running process has this pid.
    const journal = {
      version: 2 as const,
      state: "committed" as const,
      pid: 2 ** 22 + 1,
      hostname: hostname(),
      cwd: realCwd,
      files,
    };
    const name = `${hostTag()}-${journal.pid}-00000000000a.journal`;
    await writeJournal(fileSystem, join(journals.folder, name), journal, journals.key);
  }

  it("finishes an interrupted apply at the session's start and leaves no litter", async () => {
    await interruptedApply();
    const tool = createAstEditTool({ cwd, stateDirectory });
    await tool.onSession?.(
      { reason: "start" },
      { sessionId: "s", cwd, hasPendingActions: () => false, abort() {}, pushPendingAction() {} },
    );
    expect(await read("src/b.ts")).toBe("logger.info(b);\n");
    expect((await readdir(cwd, { recursive: true })).sort()).toEqual([
      "src",
      "src/a.ts",
      "src/b.ts",
      "src/c.ts",
    ]);
  });

  it("recovers before the first call when the host sends no start event, and tells the model once", async () => {
    await interruptedApply();
    const tool = createAstEditTool({ cwd, stateDirectory });
    const { ctx } = collectingContext(() => tool);
    const first = await tool.execute("1", LOG_TO_LOGGER, undefined, ctx);
    const note = "An interrupted ast_edit apply of 1 file was completed: wrote src/b.ts.";
    expect(text(first)).toContain(note);
    expect((first.details as { warnings: string[] }).warnings).toEqual([note]);
    expect(text(first)).toContain("AST Edit preview: 2 replacements in 1 file");
    expect((await readdir(cwd, { recursive: true })).sort()).toEqual([
      "src",
      "src/a.ts",
      "src/b.ts",
      "src/c.ts",
    ]);

    const second = await tool.execute("2", LOG_TO_LOGGER, undefined, ctx);
    expect(text(second)).not.toContain("interrupted");
  });

  it("writes nothing and leaves no temporary file or journal when staging a file fails", async () => {
    await write(LOGS);
    const { open } = await import("node:fs/promises");
    const { actions } = await preview(LOG_TO_LOGGER, {
      stateDirectory,
      fileSystem: {
        open: (async (path: string, flags?: string | number, mode?: number) => {
          if (path.includes(".b.ts.") && flags === "wx")
            throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
          return open(path, flags, mode);
        }) as typeof open,
      },
    });
    await expect(actions[0]?.apply("go")).rejects.toMatchObject({
      code: "E_AST_EDIT_WRITE",
      message: expect.stringContaining(
        "writing src/b.ts failed: ENOSPC: no space left on device. Nothing was changed.",
      ),
    });
    expect(await read("src/a.ts")).toBe(LOGS["src/a.ts"]);
    expect((await readdir(cwd, { recursive: true })).sort()).toEqual([
      "src",
      "src/a.ts",
      "src/b.ts",
      "src/c.ts",
    ]);
    expect(await readdir(join(stateDirectory, "ast-edit-journals"))).toEqual(["journal.key"]);
  });
});
