import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// A folder walk skips symbolic links (a link can lead out of the working directory), as the
// README says, but the model was not told: with the file it meant reached through a link, a
// call over the folder answered "No replacements made: no pattern matched in 1 file", and the
// model concluded the code had no match. Each link that would have been searched (a source
// extension that fits glob and lang) is now named among the skipped files, with what to do.

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("skipped-link");
});

afterEach(async () => {
  await workspace.remove();
});

it("names a linked source file it did not follow", async () => {
  await workspace.write("lib/real.ts", "foo(1);\n");
  await workspace.write("src/other.ts", "baz(2);\n");
  await symlink(join(workspace.cwd, "lib/real.ts"), join(workspace.cwd, "src/linked.ts"));
  await symlink(join(workspace.cwd, "lib/real.ts"), join(workspace.cwd, "src/notes.txt"));

  const { result, actions } = await previewAstEdit(
    workspace.cwd,
    { path: "src", ops: [{ pat: "foo($A)", out: "bar($A)" }] },
    {},
  );

  const text = textOf(result);
  expect(text).toContain("No replacements made: no pattern matched in 1 file under src.");
  expect(text).toContain(
    "Skipped src/linked.ts: a symbolic link, which a folder search does not follow; pass the file it leads to as path",
  );
  // Not a source file: nothing to say.
  expect(text).not.toContain("notes.txt");
  expect(actions).toEqual([]);
});
