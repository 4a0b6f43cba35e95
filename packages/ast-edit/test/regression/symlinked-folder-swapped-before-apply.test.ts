import { readFile, rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAstEditTool } from "../../src/ast-edit-tool.js";
import { type AstEditWorkspace, astEditWorkspace, textOf } from "./ast-edit-workspace.js";

// Issue 12, item 11: replacing a folder by a symbolic link to a folder outside the working
// directory, between preview and apply, made apply write outside it (the outside file held
// the same text, so the stale check passed). Apply now resolves every target's real path
// again and refuses, keeping the action pending, when it leaves the working directory or is
// not the file the preview read.

const SOURCE = "export const a = foo(1);\n";
const FOO_TO_BAR = { ops: [{ pat: "foo($A)", out: "bar($A)" }] };

let workspace: AstEditWorkspace;
let session: Session;

beforeEach(async () => {
  workspace = await astEditWorkspace("symlink-swap");
  session = new Session({ cwd: workspace.cwd });
  session.register(createAstEditTool({ cwd: workspace.cwd }), "built-in");
  await session.start();
});

afterEach(async () => {
  await session.dispose();
  await workspace.remove();
});

async function previewThenApply(swap: () => Promise<void>) {
  const preview = await session.execute({ toolCallId: "1", name: "ast_edit", params: FOO_TO_BAR });
  expect(preview.isError).toBeUndefined();
  await swap();
  return session.execute({ toolCallId: "2", name: "resolve", params: { action: "apply", reason: "go" } });
}

describe("a folder replaced by a symbolic link between preview and apply", () => {
  it("to a folder outside the working directory: apply refuses, writes nowhere, and the action stays pending", async () => {
    await workspace.write("src/a.ts", SOURCE);
    const outside = join(workspace.root, "outside");
    const outsideFile = await workspace.write("a.ts", SOURCE, outside);

    const applied = await previewThenApply(async () => {
      await rename(join(workspace.cwd, "src"), join(workspace.cwd, "src-moved"));
      await symlink(outside, join(workspace.cwd, "src"), "dir");
    });

    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain(
      `src/a.ts now resolves to ${outsideFile}, outside the working directory ${workspace.cwd}. Nothing was written.`,
    );
    expect(await readFile(outsideFile, "utf8")).toBe(SOURCE);
    expect(await readFile(join(workspace.cwd, "src-moved/a.ts"), "utf8")).toBe(SOURCE);
    expect(session.pending.size).toBe(1);
    expect(session.pending.peek()?.label).toBe("AST Edit: 1 replacement in 1 file");
  });

  it("to another folder inside it: apply refuses, since the target is not the previewed file", async () => {
    await workspace.write("src/a.ts", SOURCE);
    const other = await workspace.write("other/a.ts", SOURCE);

    const applied = await previewThenApply(async () => {
      await rename(join(workspace.cwd, "src"), join(workspace.cwd, "src-moved"));
      await symlink(join(workspace.cwd, "other"), join(workspace.cwd, "src"), "dir");
    });

    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain(
      `src/a.ts now resolves to ${other}, not ${join(workspace.cwd, "src/a.ts")} as at the preview`,
    );
    expect(await readFile(other, "utf8")).toBe(SOURCE);
    expect(session.pending.size).toBe(1);
  });

  it("the working directory itself replaced by a link: apply refuses", async () => {
    await workspace.write("src/a.ts", SOURCE);
    const outside = join(workspace.root, "outside");
    await workspace.write("src/a.ts", SOURCE, outside);

    const applied = await previewThenApply(async () => {
      await rename(workspace.cwd, join(workspace.root, "project-moved"));
      await symlink(outside, workspace.cwd, "dir");
    });

    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain(
      `the working directory ${workspace.cwd} now resolves to ${outside}, not ${workspace.cwd} as at the preview`,
    );
    expect(await readFile(join(outside, "src/a.ts"), "utf8")).toBe(SOURCE);
    expect(session.pending.size).toBe(1);
  });

  it("a file replaced by another one with the same text: apply refuses", async () => {
    const path = await workspace.write("src/a.ts", SOURCE);
    const applied = await previewThenApply(async () => {
      const replacement = await workspace.write("src/replacement.ts", SOURCE);
      await rename(replacement, path);
    });
    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain("src/a.ts was replaced by another file since the preview");
    expect(session.pending.size).toBe(1);
  });
});
