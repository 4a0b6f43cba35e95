import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CustomToolDurableAction } from "@tooldock/sdk";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createAstEditTool } from "../../src/index.js";
import { fakeContext } from "../fake-context.js";
import { type AstEditWorkspace, astEditWorkspace } from "./ast-edit-workspace.js";

// A preview staged in a durable store keeps each file's text (`original`) beside the SHA-256
// of its bytes (`hash`). Apply checked that the file still hashes to `hash`, then wrote the
// rewrite of `original`: a payload whose text was changed in the store (by hand, by another
// version of ast_edit, by a faulty store) passed the check and its text replaced the file's,
// and every line the user had in it was lost while apply answered "Applied". The README
// promised that a payload changed in the store is refused; now each text must hash to its
// `hash`, or apply refuses with E_AST_EDIT_STALE and writes nothing.

let workspace: AstEditWorkspace;
let stateDirectory: string;

beforeEach(async () => {
  workspace = await astEditWorkspace("staged-text-changed");
  stateDirectory = await realpath(await mkdtemp(join(tmpdir(), "tooldock-state-")));
});

afterEach(async () => {
  await workspace.remove();
  await rm(stateDirectory, { recursive: true, force: true });
});

it("a payload whose file text no longer matches its hash is refused and the file is kept", async () => {
  const source = "foo(1);\n// the user's notes\nconst keep = 1;\n";
  const path = await workspace.write("src/a.ts", source);
  const tool = createAstEditTool({ cwd: workspace.cwd, stateDirectory });
  const staged: CustomToolDurableAction[] = [];
  const ctx = fakeContext({
    cwd: workspace.cwd,
    pushPendingAction: (action) => staged.push(action as CustomToolDurableAction),
  });
  await tool.execute("call-1", { ops: [{ pat: "foo($A)", out: "bar($A)" }] }, undefined, ctx);
  const [action] = staged;
  if (action === undefined) throw new Error("the preview staged nothing");

  // The payload as a store gives it back, with the file's text changed in it.
  const payload = JSON.parse(JSON.stringify(action.payload));
  payload.files[0].original = "foo(1);\n";
  const apply = tool.actions?.rewrite?.apply;
  if (apply === undefined) throw new Error("ast_edit declares no rewrite handler");

  await expect(
    apply(payload, "go", { actionId: "action-1", sessionId: "s", cwd: workspace.cwd, label: action.label }),
  ).rejects.toMatchObject({
    code: "E_AST_EDIT_STALE",
    message: expect.stringContaining("the text of src/a.ts does not match its hash"),
  });
  expect(await readFile(path, "utf8")).toBe(source);
});
