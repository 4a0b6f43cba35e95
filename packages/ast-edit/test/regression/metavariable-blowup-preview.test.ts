import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// Issue 12, item 12: a 3 KB pattern whose output repeats a metavariable 1,500 times took 44 s
// and 2.6 GB to preview: nothing bounded the size of a rewrite. A rewritten file may now hold
// at most maxFileBytes (default 8 MiB) and a preview maxPreviewBytes (default 32 MiB) of
// rewritten files and diffs; past either, the call fails with a bounded error that says which
// limit was hit and how to narrow the call, before the output is built, and stages nothing.

const CALLS = 400;
const SOURCE = `${Array.from({ length: CALLS }, (_, n) => `foo(argument_number_${n});`).join("\n")}\n`;
/** Each match's output repeats its argument 1,500 times: 400 x 1,500 x ~22 B = ~13 MB. */
const BLOWUP = { pat: "foo($A)", out: `[${Array.from({ length: 1500 }, () => "$A").join(", ")}]` };

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("metavariable-blowup");
});

afterEach(async () => {
  await workspace.remove();
});

describe("a rewrite whose output blows up", () => {
  it("fails with E_AST_EDIT_LIMIT at the default per-file limit, stages nothing, writes nothing", async () => {
    const path = await workspace.write("src/calls.ts", SOURCE);
    const { result, actions } = await previewAstEdit(workspace.cwd, { ops: [BLOWUP] });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "ast_edit stopped: the rewrite of src/calls.ts would be larger than 8388608 bytes, the most one rewritten file may hold (maxFileBytes). " +
        "Nothing was changed or staged. Narrow the call: a path or glob that covers fewer files, a pattern that matches only what you mean, " +
        "an `out` that repeats its metavariables less, or `limit`; or split the rewrite into several calls.",
    );
    expect(actions).toHaveLength(0);
    expect(await readFile(path, "utf8")).toBe(SOURCE);
  });

  it("fails with E_AST_EDIT_LIMIT when the files together outgrow maxPreviewBytes", async () => {
    for (let file = 0; file < 5; file++)
      await workspace.write(`src/part-${file}.ts`, `foo(${"x".repeat(1000)});\n`);
    const { result, actions } = await previewAstEdit(
      workspace.cwd,
      { ops: [{ pat: "foo($A)", out: "bar($A, $A, $A)" }] },
      { maxPreviewBytes: 10_000 },
    );

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^ast_edit stopped at src\/part-\d\.ts: the rewritten files and their diffs would be larger than 10000 bytes after (?:1 file|\d files), the most one preview may hold \(maxPreviewBytes\)\. Nothing was changed or staged\. Narrow the call/,
    );
    expect(actions).toHaveLength(0);
  });

  it("skips a file larger than maxFileBytes with a warning, and rewrites the others", async () => {
    const big = `foo(1);\n${"// filler\n".repeat(200)}`;
    await workspace.write("src/big.ts", big);
    await workspace.write("src/small.ts", "foo(2);\n");
    const { result, actions } = await previewAstEdit(
      workspace.cwd,
      { ops: [{ pat: "foo($A)", out: "bar($A)" }] },
      { maxFileBytes: 1000 },
    );

    expect(textOf(result)).toContain(
      `Skipped src/big.ts: it holds ${big.length} bytes, more than maxFileBytes (1000); ast_edit leaves larger files alone.`,
    );
    expect(actions[0]?.label).toBe("AST Edit: 1 replacement in 1 file");
  });
});
