// Another process grows a target (here to 64 MiB) after the apply's checks, while the journal
// is committed. The check right before the rename read the file whole, with no cap, to hash
// it: a target grown to gigabytes was read into memory before the apply refused. It now reads
// no more bytes than the preview read: a larger file has changed, and is refused unread.
import * as fs from "node:fs/promises";
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
  workspace = await astEditWorkspace("grown-during-apply");
});
afterEach(async () => {
  await workspace.remove();
});

it("a target grown after the checks is refused without being read whole", async () => {
  const target = await workspace.write("src/a.ts", "foo(1);\n");
  const grownTo = 64 * 1024 * 1024;
  let journalWrites = 0;
  let grown = false;
  let bytesReadAfterGrowth = 0;
  const open: typeof fs.open = async (path, flags, mode) => {
    if (flags === "wx" && !String(path).startsWith(workspace.cwd)) {
      journalWrites += 1;
      if (journalWrites === 2) {
        await fs.truncate(target, grownTo); // sparse: no disk, but 64 MiB to read
        grown = true;
      }
    }
    const handle = await fs.open(path, flags, mode);
    if (!grown || String(path) !== target) return handle;
    const readFile = handle.readFile.bind(handle);
    handle.readFile = (async (...args: Parameters<typeof readFile>) => {
      const bytes = await readFile(...args);
      bytesReadAfterGrowth += bytes.length;
      return bytes;
    }) as typeof handle.readFile;
    return handle;
  };
  const session = await astEditSession(workspace, open);
  try {
    const applied = await previewThenApply(session);

    expect(grown).toBe(true);
    expect(applied.isError).toBe(true);
    expect(textOf(applied)).toContain("Cannot apply AST Edit: src/a.ts changed while it was being applied");
    expect(bytesReadAfterGrowth).toBe(0);
    expect((await fs.stat(target)).size).toBe(grownTo);
    expect(session.pending.size).toBe(1);
  } finally {
    await session.dispose();
  }
});
