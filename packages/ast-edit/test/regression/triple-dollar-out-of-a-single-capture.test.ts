import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// `out` wrote `$$$A` where `pat` captured `$A` (one node): the rewrite replaced it with
// nothing, so `foo(config)` became `bar()` and apply deleted the argument. The README says
// only "a `$$$NAME` that captured nothing is empty"; `$A` written for a `$$$A` capture already
// gave the captured text. Either spelling now inserts what the name captured.

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("triple-dollar-single");
});

afterEach(async () => {
  await workspace.remove();
});

it("`$$$A` in out inserts what `$A` in pat captured, instead of deleting it", async () => {
  const path = await workspace.write("src/a.ts", "foo(config);\nfoo();\n");

  const { result, actions } = await previewAstEdit(workspace.cwd, {
    ops: [{ pat: "foo($A)", out: "bar($$$A)" }],
  });

  expect(textOf(result)).toContain("-foo(config);\n+bar(config);");
  await actions[0]?.apply("go");
  expect(await readFile(path, "utf8")).toBe("bar(config);\nfoo();\n");
});
