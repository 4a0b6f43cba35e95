import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createAstEditTool } from "../../src/index.js";
import { type AstEditWorkspace, astEditWorkspace, textOf } from "./ast-edit-workspace.js";

// Two previews of one file staged in a session (pendingPolicy "allow"), resolved last in,
// first out: the second preview's apply wrote the file, and the first one's apply was
// refused with "a.ts was replaced by another file since the preview", which reads like a
// swap or an attack, not like what happened: the file's text changed (ast_edit writes a file
// by renaming a new one over it, as many editors save). A file whose bytes differ now says
// that it changed; "replaced by another file" is kept for a new file with the same bytes.

let workspace: AstEditWorkspace;
let session: Session;

beforeEach(async () => {
  workspace = await astEditWorkspace("second-pending-edit");
  const stateDirectory = await realpath(await mkdtemp(join(tmpdir(), "tooldock-state-")));
  session = new Session({ cwd: workspace.cwd, pendingPolicy: "allow" });
  session.register(createAstEditTool({ cwd: workspace.cwd, stateDirectory }), "built-in");
  await session.start();
  return () => rm(stateDirectory, { recursive: true, force: true });
});

afterEach(async () => {
  await session.dispose();
  await workspace.remove();
});

it("the older preview's apply says the file changed since its preview, and the newer edit is kept", async () => {
  const path = await workspace.write("src/a.ts", "foo(1);\nbar(2);\n");
  let id = 0;
  const call = (name: string, params: unknown) =>
    session.execute({ toolCallId: `call-${id++}`, name, params });
  await call("ast_edit", { ops: [{ pat: "foo($A)", out: "FOO($A)" }] });
  await call("ast_edit", { ops: [{ pat: "bar($A)", out: "BAR($A)" }] });

  const newer = await call("resolve", { action: "apply", reason: "go" });
  const older = await call("resolve", { action: "apply", reason: "go" });

  expect(newer.isError).toBeFalsy();
  expect(older.isError).toBe(true);
  expect(textOf(older)).toContain("Cannot apply AST Edit: src/a.ts changed since the preview.");
  expect(textOf(older)).not.toContain("replaced by another file");
  expect(await readFile(path, "utf8")).toBe("foo(1);\nBAR(2);\n");
});
