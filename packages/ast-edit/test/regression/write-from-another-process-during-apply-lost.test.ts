// Two processes of a chat server (one PostgreSQL store, one folder) apply a preview of the
// same file at the same time. Applies are one at a time only within a process: the other
// process's apply checked the file (unchanged), then wrote its journal and its temporary
// file, each fsynced, while this one renamed its rewrite over the file; its own rename then
// replaced that rewrite with one made from the old text. One edit was lost, and both answered
// "Applied". Recovery after a crash already renames a temporary file only over the before
// image; the apply in process now checks each target again right before its rename, refuses
// (E_AST_EDIT_STALE) and puts back what it had already renamed.
import * as fs from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  type AstEditWorkspace,
  astEditSession,
  astEditWorkspace,
  previewThenApply,
  textOf,
} from "./ast-edit-workspace.js";

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("write-during-apply");
});
afterEach(async () => {
  await workspace.remove();
});

it("a file rewritten by another process after the checks is not overwritten, and no file keeps half the apply", async () => {
  const first = await workspace.write("src/a.ts", "foo(1);\n");
  const second = await workspace.write("src/b.ts", "foo(2);\nqux(3);\n");
  const otherProcessText = "foo(2);\nQUX(3);\n";
  let journalWrites = 0;
  // The other process's apply lands while this one commits its journal (after the checks and
  // the temporary files, before the renames): a rename of a new file over src/b.ts.
  const open: typeof fs.open = async (path, flags, mode) => {
    if (flags === "wx" && !String(path).startsWith(workspace.cwd)) {
      journalWrites += 1;
      if (journalWrites === 2) {
        const staged = await workspace.write("src/.b.ts.other-process", otherProcessText);
        await fs.rename(staged, second);
      }
    }
    return fs.open(path, flags, mode);
  };
  const session = await astEditSession(workspace, open);
  try {
    const applied = await previewThenApply(session);

    expect(journalWrites).toBe(2);
    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain("Cannot apply AST Edit: src/b.ts changed while it was being applied");
    expect(await fs.readFile(second, "utf8")).toBe(otherProcessText);
    expect(await fs.readFile(first, "utf8")).toBe("foo(1);\n");
    expect(session.pending.size).toBe(1);
    expect((await fs.readdir(join(workspace.cwd, "src"))).sort()).toEqual(["a.ts", "b.ts"]);
  } finally {
    await session.dispose();
  }
});
