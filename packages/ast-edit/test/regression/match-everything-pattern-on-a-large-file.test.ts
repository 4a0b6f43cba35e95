// Attack (a model's mistake as often as not): `ast_edit` with the pattern `$A` on a 900 KB file.
// A lone metavariable matches every node: the matches were all collected and sorted before the
// first yield, which held the event loop 8-30 s and took 0.93 GB, past a 2 s deadline. Fix: a
// pattern that is a metavariable alone is refused before any file is read (E_AST_EDIT_PATTERN),
// and one operation may match at most MAX_MATCHES_PER_FILE times in a file (E_AST_EDIT_LIMIT,
// checked before the matches are sorted or rewritten).
import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_MATCHES_PER_FILE } from "../../src/rewrite.js";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

let workspace: AstEditWorkspace;
beforeEach(async () => {
  workspace = await astEditWorkspace("match-everything");
});
afterEach(async () => {
  await workspace.remove();
});

describe("regression: a pattern that matches (nearly) every node", () => {
  it.each(["$A", "$$$BODY", " $_; "])(
    "refuses the lone metavariable %j before reading a file",
    async (pat) => {
      const path = await workspace.write("src/a.ts", "export const a = foo(1);\n");
      const { result, actions } = await previewAstEdit(workspace.cwd, { ops: [{ pat, out: "x" }] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("is a metavariable alone: it matches every node of every file");
      expect(actions).toHaveLength(0);
      expect(await readFile(path, "utf8")).toBe("export const a = foo(1);\n");
    },
  );

  it(`stops at ${MAX_MATCHES_PER_FILE} matches of one operation in one file, staging nothing`, async () => {
    const calls = MAX_MATCHES_PER_FILE + 1;
    const source = `${Array.from({ length: calls }, (_, n) => `f(${n});`).join("\n")}\n`;
    const path = await workspace.write("src/many.ts", source);
    const { result, actions } = await previewAstEdit(workspace.cwd, {
      ops: [{ pat: "f($A)", out: "g($A)" }],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`ops[0].pat matches at least ${calls} times in src/many.ts`);
    expect(actions).toHaveLength(0);
    expect(await readFile(path, "utf8")).toBe(source);
  });
});
