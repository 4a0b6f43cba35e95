import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit } from "./ast-edit-workspace.js";

// Two previews of one file (two conversations of a chat server in one folder, say), applied
// at the same time in one process: both checked the file before either wrote it, both
// answered "Applied", and the second rename replaced the first one's rewrite: `foo` stayed
// rewritten, the `bar` rewrite reported as written was lost. Applies in one process now
// check and write one at a time, so the second sees the first one's write and is refused.

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("two-applies");
});

afterEach(async () => {
  await workspace.remove();
});

it("applied at once, one rewrite is written and the other refused as stale, none lost", async () => {
  const path = await workspace.write("src/a.ts", "foo(1);\nbar(2);\n");
  const first = await previewAstEdit(workspace.cwd, { ops: [{ pat: "foo($A)", out: "FOO($A)" }] });
  const second = await previewAstEdit(workspace.cwd, { ops: [{ pat: "bar($A)", out: "BAR($A)" }] });
  const actions = [...first.actions, ...second.actions];
  expect(actions).toHaveLength(2);

  const outcomes = await Promise.allSettled(actions.map((action) => action.apply("go")));

  const applied = outcomes.filter((outcome) => outcome.status === "fulfilled");
  const refused = outcomes.filter((outcome) => outcome.status === "rejected");
  expect(applied).toHaveLength(1);
  expect(refused).toEqual([
    { status: "rejected", reason: expect.objectContaining({ code: "E_AST_EDIT_STALE" }) },
  ]);
  expect(["FOO(1);\nbar(2);\n", "foo(1);\nBAR(2);\n"]).toContain(await readFile(path, "utf8"));
  // The file holds exactly what the apply that succeeded reported.
  expect(await readFile(path, "utf8")).toBe(
    outcomes[0]?.status === "fulfilled" ? "FOO(1);\nbar(2);\n" : "foo(1);\nBAR(2);\n",
  );
});
