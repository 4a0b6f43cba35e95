import * as fs from "node:fs/promises";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAstEditTool } from "../../src/ast-edit-tool.js";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// Issue 12, item 12: an 8,000-line rewrite blocked the event loop for 14-23 s under a 3 s
// deadline: the diff was quadratic and synchronous, so the session's deadline timer could
// not fire, the call answered with a full preview long after its deadline, and the action was
// staged. The diff is now built from the replacements (linear) and the rewrite lets the event
// loop run between files, operations and every 1,000 matches, checking the call's signal.
//
// No assertion here is on time: the work below takes the fixed code seconds (six passes over
// 8,000 matches) and the old code minutes, against deadlines of 50 and 100 ms, so the outcome
// is the same on any machine: the call ends stopped, and nothing is staged or written.

const LINES = 8000;
const SOURCE = `${Array.from({ length: LINES }, (_, n) => `foo(${n});`).join("\n")}\n`;
/** foo -> f1 -> f2 -> ... -> f6: six passes, each rewriting every line. */
const OPS = ["foo", "f1", "f2", "f3", "f4", "f5"].map((name, index) => ({
  pat: `${name}($A)`,
  out: `f${index + 1}($A)`,
}));

let workspace: AstEditWorkspace;
let path: string;

beforeEach(async () => {
  workspace = await astEditWorkspace("large-rewrite");
  path = await workspace.write("src/big.ts", SOURCE);
});

afterEach(async () => {
  await workspace.remove();
});

describe("a large rewrite", () => {
  it("stops when its signal is aborted mid-rewrite, and stages nothing", async () => {
    const controller = new AbortController();
    // The deadline is armed when the file is first touched (its read starts with an lstat),
    // so it falls in the rewrite.
    let armed = false;
    const fileSystem = {
      lstat: ((file: string, ...rest: []) => {
        if (!armed && String(file) === path) {
          armed = true;
          setTimeout(() => controller.abort(new Error("deadline")), 50);
        }
        return fs.lstat(file, ...rest);
      }) as typeof fs.lstat,
    };
    const { result, actions } = await previewAstEdit(
      workspace.cwd,
      { ops: OPS },
      { fileSystem },
      controller.signal,
    );

    expect(armed).toBe(true);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("ast_edit was aborted before it finished. Nothing was changed.");
    expect(actions).toHaveLength(0);
    expect(await readFile(path, "utf8")).toBe(SOURCE);
  });

  it("through a Session: the deadline answers, and the stopped call stages nothing afterwards", async () => {
    const tool = createAstEditTool({ cwd: workspace.cwd });
    let running: ReturnType<typeof tool.execute> | undefined;
    const execute = tool.execute.bind(tool);
    tool.execute = (...args) => {
      running = execute(...args);
      return running;
    };
    const session = new Session({ cwd: workspace.cwd, executeTimeoutMs: 100 });
    session.register(tool, "built-in");
    try {
      const result = await session.execute({ toolCallId: "1", name: "ast_edit", params: { ops: OPS } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("100 ms");
      // The tool itself ends at its next check of the signal, without staging.
      expect((await running)?.isError).toBe(true);
      expect(session.pending.size).toBe(0);
      expect(await readFile(path, "utf8")).toBe(SOURCE);
    } finally {
      await session.dispose();
    }
  });

  it("previews in full with a diff of every changed line when given the time", async () => {
    const { result, actions } = await previewAstEdit(workspace.cwd, { ops: [OPS[0] as (typeof OPS)[0]] });
    expect(result.isError).toBeUndefined();
    const diff = (result.details as { files: Array<{ diff: string }> }).files[0]?.diff ?? "";
    const lines = diff.split("\n");
    expect(lines.filter((line) => line.startsWith("-foo("))).toHaveLength(LINES);
    expect(lines.filter((line) => line.startsWith("+f1("))).toHaveLength(LINES);
    expect(actions[0]?.label).toBe(`AST Edit: ${LINES} replacements in 1 file`);
    await actions[0]?.apply("go");
    expect(await readFile(join(workspace.cwd, "src/big.ts"), "utf8")).toBe(SOURCE.replaceAll("foo(", "f1("));
  });
});
