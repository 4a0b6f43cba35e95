import { afterEach, beforeEach, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// A folder whose only source files were skipped (not UTF-8, larger than maxFileBytes) was
// answered "No replacements made: found no ts, tsx, js, jsx, html or css file under the
// working directory that fits glob and lang": the model was told there was nothing to edit,
// when there were files it could not read, and went looking for files that were there. The
// answer now says how many files it found and that it skipped them, with each reason below.

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("skipped-files");
});

afterEach(async () => {
  await workspace.remove();
});

it("says the files it found were skipped, not that it found none", async () => {
  await workspace.write(
    "src/latin1.ts",
    Buffer.from([0x66, 0x6f, 0x6f, 0x28, 0x31, 0x29, 0x3b, 0x2f, 0x2f, 0xe9, 0x0a]),
  );
  await workspace.write("src/big.ts", "foo(1);\n".repeat(200));

  const { result, actions } = await previewAstEdit(
    workspace.cwd,
    { ops: [{ pat: "foo($A)", out: "bar($A)" }] },
    { maxFileBytes: 1000 },
  );

  const text = textOf(result);
  expect(text).not.toContain("found no ts");
  expect(text).toContain(
    "No replacements made: found 2 files under the working directory that fit glob and lang, and skipped both (why is below). Nothing was changed.",
  );
  expect(text).toContain("Skipped src/latin1.ts: it is not valid UTF-8 text");
  expect(text).toContain("Skipped src/big.ts: it holds 1600 bytes, more than maxFileBytes (1000)");
  expect(actions).toEqual([]);
});
