// Attack (another user with write access to a folder on the way, racing the apply): a folder
// replaced by a symbolic link to a folder outside the working directory *during* a long apply,
// after its re-check, while the rewrite ran again. The temporary file and the rename then went
// through the link: the apply wrote outside the working folder. Fix: the rewrite runs before
// the re-check, and each target's folder is checked again right before its temporary file is
// written and again before its rename; a swap refuses the apply (E_AST_EDIT_PATH) and
// restores what was already renamed.
import * as fs from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AstEditWorkspace, astEditSession, astEditWorkspace, textOf } from "./ast-edit-workspace.js";

const SOURCE = "export const a = foo(1);\n";
const FOO_TO_BAR = { ops: [{ pat: "foo($A)", out: "bar($A)" }] };

let workspace: AstEditWorkspace;

beforeEach(async () => {
  workspace = await astEditWorkspace("swap-during-apply");
});
afterEach(async () => {
  await workspace.remove();
});

/**
 * A session whose ast_edit swaps `src` for a link to `outside` when the apply writes its
 * journal for the `swapAt`-th time (1: before the temporary files; 2: the commit, before the
 * renames): the moments between the checks and the writes.
 */
async function sessionSwappingAt(swapAt: number, outside: string) {
  let journalWrites = 0;
  const open: typeof fs.open = async (path, flags, mode) => {
    const name = String(path);
    if (flags === "wx" && !name.startsWith(workspace.cwd)) {
      journalWrites += 1;
      if (journalWrites === swapAt) {
        await fs.rename(join(workspace.cwd, "src"), join(workspace.cwd, "src-moved"));
        await fs.symlink(outside, join(workspace.cwd, "src"), "dir");
      }
    }
    return fs.open(path, flags, mode);
  };
  return astEditSession(workspace, open);
}

describe("regression: a folder swapped for a link during the apply", () => {
  it.each([
    ["before the temporary files are written", 1],
    ["after the commit, before the renames", 2],
  ])("%s: refuses, writes nothing outside, keeps the action pending", async (_when, swapAt) => {
    await workspace.write("src/a.ts", SOURCE);
    const outside = join(workspace.root, "outside");
    const outsideFile = await workspace.write("a.ts", SOURCE, outside);
    const session = await sessionSwappingAt(swapAt, outside);
    try {
      const preview = await session.execute({ toolCallId: "1", name: "ast_edit", params: FOO_TO_BAR });
      expect(preview.isError).toBeUndefined();
      const applied = await session.execute({
        toolCallId: "2",
        name: "resolve",
        params: { action: "apply", reason: "go" },
      });
      expect(applied.isError).toBe(true);
      expect(textOf(applied)).toContain(
        "a folder on the way was replaced (by a symbolic link?) during the apply",
      );
      expect(await fs.readFile(outsideFile, "utf8")).toBe(SOURCE);
      expect(await fs.readdir(outside)).toEqual(["a.ts"]);
      expect(await fs.readFile(join(workspace.cwd, "src-moved/a.ts"), "utf8")).toBe(SOURCE);
      expect(session.pending.size).toBe(1);
    } finally {
      await session.dispose();
    }
  });
});
