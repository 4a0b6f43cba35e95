import { dirname } from "node:path";
import { count } from "@tooldock/runtime/internal";
import { type JournalEntry, newJournalPath, prepareJournal, writeJournal } from "./apply-journal.js";
import { AstEditError } from "./ast-edit-error.js";
import { syncDirectory, temporaryPathFor, writeFileAtomic, writeTemporaryFile } from "./atomic-write.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { isInsideFolder } from "./inside-folder.js";
import type { JournalFolder } from "./journal-folder.js";
import { type FileIdentity, readRegularFile } from "./read-regular-file.js";

/** One file to replace: where, what it held (and its hash), and what it will hold. */
export interface FileWrite {
  /** The real path: no symbolic link on the way (checked just before). */
  absolutePath: string;
  relativePath: string;
  original: string;
  hash: string;
  /** The file at `absolutePath`; when a failed apply writes `original` back, set to the new file. */
  identity?: FileIdentity;
  content: string;
}

/**
 * Replaces every file in `writes` so that, even if the process dies at any point, the next
 * start of `ast_edit` (see `recoverInterruptedApplies`) leaves all of them in their old text
 * or all in their new text:
 *
 * 1. a journal in the private journal folder lists `cwd`, each target, its temporary file and
 *    both hashes (`prepared`), signed with the folder's key;
 * 2. each new text goes to its temporary file, `fsync`ed, and the directories are synced;
 * 3. the journal is replaced atomically by its `committed` state: the commit point;
 * 4. each temporary file is renamed over its target, in order; the directories are synced;
 * 5. the journal is removed.
 *
 * A crash before 3 is rolled back (temporary files removed), after it rolled forward.
 *
 * @throws {AstEditError} `E_AST_EDIT_WRITE` when a step fails in this process; the files are
 *   then put back as they were (a failed rename restores the files already renamed).
 */
export async function writeFilesTogether(
  fileSystem: AstEditFileSystem,
  journals: JournalFolder,
  cwd: string,
  writes: readonly FileWrite[],
): Promise<void> {
  const journalPath = newJournalPath(journals.folder);
  const entries: JournalEntry[] = writes.map((write) => ({
    path: write.absolutePath,
    temporaryPath: temporaryPathFor(write.absolutePath),
    beforeHash: write.hash,
    afterHash: hashContent(Buffer.from(write.content, "utf8")),
  }));
  const journal = prepareJournal(cwd, entries);
  const directories = [...new Set(writes.map((write) => dirname(write.absolutePath)))];

  let step = "the apply journal";
  try {
    await writeJournal(fileSystem, journalPath, journal, journals.key);
    for (const [index, write] of writes.entries()) {
      step = write.relativePath;
      await assertFolderInPlace(fileSystem, cwd, write);
      await writeTemporaryFile(
        fileSystem,
        write.absolutePath,
        entryAt(entries, index).temporaryPath,
        write.content,
      );
    }
    for (const directory of directories) await syncDirectory(fileSystem, directory);
    step = "the apply journal";
    await writeJournal(fileSystem, journalPath, { ...journal, state: "committed" }, journals.key);
  } catch (error) {
    await removeAll(fileSystem, [journalPath, ...entries.map((entry) => entry.temporaryPath)]);
    throw writeError(step, error, 0, []);
  }

  for (const [index, write] of writes.entries()) {
    try {
      await assertFolderInPlace(fileSystem, cwd, write);
      await assertTargetUnchanged(fileSystem, write);
      await fileSystem.rename(entryAt(entries, index).temporaryPath, write.absolutePath);
    } catch (error) {
      throw await rollBack(fileSystem, journalPath, writes, entries, index, error);
    }
  }
  for (const directory of directories) await syncDirectory(fileSystem, directory);
  await fileSystem.rm(journalPath, { force: true }).catch(() => undefined);
}

function entryAt(entries: readonly JournalEntry[], index: number): JournalEntry {
  const entry = entries[index];
  if (entry === undefined) throw new RangeError(`no journal entry ${index}`);
  return entry;
}

/**
 * After the rename of `writes[failedIndex]` failed: drops the journal (so no later start rolls
 * forward), removes the temporary files not renamed, restores the files already renamed.
 */
async function rollBack(
  fileSystem: AstEditFileSystem,
  journalPath: string,
  writes: readonly FileWrite[],
  entries: readonly JournalEntry[],
  failedIndex: number,
  cause: unknown,
): Promise<AstEditError> {
  await removeAll(fileSystem, [journalPath]);
  await removeAll(
    fileSystem,
    entries.slice(failedIndex).map((entry) => entry.temporaryPath),
  );
  const notRestored: string[] = [];
  for (const write of writes.slice(0, failedIndex)) {
    try {
      await writeFileAtomic(fileSystem, write.absolutePath, write.original);
    } catch {
      notRestored.push(write.relativePath);
      continue;
    }
    // The old text is back in a new file: a later apply must recognise that file.
    const stats = await fileSystem.lstat(write.absolutePath, { bigint: true }).catch(() => undefined);
    if (stats !== undefined && write.identity !== undefined) {
      write.identity.device = stats.dev;
      write.identity.inode = stats.ino;
    }
  }
  return writeError(writes[failedIndex]?.relativePath ?? "a file", cause, failedIndex, notRestored);
}

async function removeAll(fileSystem: AstEditFileSystem, paths: readonly string[]): Promise<void> {
  for (const path of paths) await fileSystem.rm(path, { force: true }).catch(() => undefined);
}

/**
 * Throws `E_AST_EDIT_PATH` unless the folder of `write` still resolves to itself (its path is
 * the real one the checks found) inside `cwd`: a folder on the way replaced by a symbolic link
 * after the checks would send the write elsewhere. Node has no `openat`, so a window of a few
 * system calls remains between this and the write; the long rewrite is no longer in it.
 */
async function assertFolderInPlace(
  fileSystem: AstEditFileSystem,
  cwd: string,
  write: FileWrite,
): Promise<void> {
  const folder = dirname(write.absolutePath);
  const real = await fileSystem.realpath(folder).catch(() => undefined);
  if (real === folder && isInsideFolder(cwd, real)) return;
  throw new AstEditError(
    "E_AST_EDIT_PATH",
    `the folder of ${write.relativePath} (${folder}) now resolves to ${real ?? "nothing"}: a folder on the way was replaced (by a symbolic link?) during the apply`,
  );
}

/**
 * Throws `E_AST_EDIT_STALE` unless the target still holds the text the checks found (its
 * `hash`): another process's apply (applies are one at a time only within a process) or an
 * editor may have written it since, while the journal and the temporary files were written
 * and synced. As recovery renames a temporary file only over its before image. A window of
 * two system calls remains between this read and the rename.
 */
async function assertTargetUnchanged(fileSystem: AstEditFileSystem, write: FileWrite): Promise<void> {
  // No more bytes than the preview read (as the checks): a larger file has changed.
  const read = await readRegularFile(fileSystem, write.absolutePath, {
    maxBytes: Buffer.byteLength(write.original, "utf8"),
  }).catch(() => undefined);
  if (read?.kind === "file" && hashContent(read.bytes) === write.hash) return;
  throw new AstEditError(
    "E_AST_EDIT_STALE",
    `${write.relativePath} changed while it was being applied (another process or an editor wrote it)`,
  );
}

function writeError(
  what: string,
  cause: unknown,
  written: number,
  notRestored: readonly string[],
): AstEditError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const state =
    notRestored.length === 0
      ? `Nothing was changed${written > 0 ? ` (${count(written, "file")} already written ${written === 1 ? "was" : "were"} restored)` : ""}.`
      : `These files hold the rewrite and could not be restored: ${notRestored.join(", ")}.`;
  if (cause instanceof AstEditError && cause.code === "E_AST_EDIT_STALE") {
    return new AstEditError(
      "E_AST_EDIT_STALE",
      `Cannot apply AST Edit: ${reason}. ${state} ` +
        'Call resolve with action "discard" to drop this stale preview, then call ast_edit again to preview the rewrite against the current files.',
      { cause },
    );
  }
  if (cause instanceof AstEditError && cause.code === "E_AST_EDIT_PATH") {
    return new AstEditError(
      "E_AST_EDIT_PATH",
      `Cannot apply AST Edit: ${reason}. ${state} Check what replaced that folder; ` +
        'call resolve with "discard" to drop this preview, then call ast_edit again.',
      { cause },
    );
  }
  return new AstEditError(
    "E_AST_EDIT_WRITE",
    `Cannot apply AST Edit: writing ${what} failed: ${reason}. ${state} ` +
      'Fix the cause (permissions, disk space) and call resolve with "apply" again, or "discard" to drop the change.',
    { cause },
  );
}
