import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AstEditWorkspace, astEditWorkspace, previewAstEdit, textOf } from "./ast-edit-workspace.js";

// Issue 12, item 11: ast_edit opened a FIFO named like a source file and waited for a writer
// forever; each such read held one thread of Node's pool, and four calls hung every later
// file read of the host. FIFOs, sockets and devices are now never opened: not when `path`
// names one, not when one replaced a previewed file before apply.

const FOO_TO_BAR = { ops: [{ pat: "foo($A)", out: "bar($A)" }] };
const posix = process.platform !== "win32";

let workspace: AstEditWorkspace;
const fifos: string[] = [];

function makeFifo(path: string): string {
  execFileSync("mkfifo", [path]);
  fifos.push(path);
  return path;
}

beforeEach(async () => {
  workspace = await astEditWorkspace("fifo");
});

afterEach(async () => {
  // If a reader is stuck in open() (the bug), opening the write end releases it with an EOF.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is waiting on it, as it should be.
    }
  }
  await workspace.remove();
});

describe.skipIf(!posix)("a FIFO in the working directory", () => {
  it("named by path: the call refuses it without opening it, five times over, and file reads still work", async () => {
    await workspace.write("src/a.ts", "foo(1);\n");
    makeFifo(join(workspace.cwd, "src/pipe.ts"));

    for (let call = 0; call < 5; call++) {
      const { result, actions } = await previewAstEdit(workspace.cwd, { ...FOO_TO_BAR, path: "src/pipe.ts" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        'path "src/pipe.ts" is not a regular file or a directory (a FIFO, socket or device); ast_edit never opens those.',
      );
      expect(actions).toHaveLength(0);
    }
    expect(await readFile(join(workspace.cwd, "src/a.ts"), "utf8")).toBe("foo(1);\n");
  }, 10_000);

  it("in a folder it walks: skipped, the other files rewritten", async () => {
    await workspace.write("src/a.ts", "foo(1);\n");
    makeFifo(join(workspace.cwd, "src/pipe.ts"));
    const { result, actions } = await previewAstEdit(workspace.cwd, FOO_TO_BAR);
    expect(result.isError).toBeUndefined();
    expect(actions[0]?.label).toBe("AST Edit: 1 replacement in 1 file");
    // Left out by the walk itself: not even tried (a read would be refused with a warning).
    expect(textOf(result)).not.toContain("pipe.ts");
  }, 10_000);

  it("put in place of a previewed file before apply: apply refuses without opening it, and file reads still work", async () => {
    const path = await workspace.write("src/a.ts", "foo(1);\n");
    const other = await workspace.write("notes.txt", "still readable\n");
    const { actions } = await previewAstEdit(workspace.cwd, FOO_TO_BAR);
    await rm(path);
    makeFifo(path);

    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(actions[0]?.apply("go")).rejects.toMatchObject({
        code: "E_AST_EDIT_STALE",
        message: expect.stringContaining("src/a.ts is not a regular file (a FIFO) since the preview"),
      });
    }
    // Node's pool has 4 threads: 5 reads stuck on the FIFO would leave none for this one.
    expect(await readFile(other, "utf8")).toBe("still readable\n");
  }, 10_000);
});
