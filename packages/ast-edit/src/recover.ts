import { hostname } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { count } from "@tooldock/runtime/internal";
import { type ApplyJournal, hostTag, JOURNAL_NAME, type JournalEntry, readJournal } from "./apply-journal.js";
import { syncDirectory, TEMPORARY_FILE_MARKER } from "./atomic-write.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { isInsideFolder } from "./inside-folder.js";
import { openJournalFolder } from "./journal-folder.js";
import { readRegularFile } from "./read-regular-file.js";

/** Tells whether the process that wrote a journal may still be running (and applying). */
export type OwnerCheck = (journal: ApplyJournal) => boolean;

/** Options of {@link recoverInterruptedApplies}. */
export interface RecoveryOptions {
  /** The state folder whose `ast-edit-journals` folder holds the journals (see `resolveStateDirectory`). */
  stateDirectory: string;
  /** Default: {@link processMayBeRunning}. */
  ownerMayBeRunning?: OwnerCheck;
}

/** The random part of a temporary file name, and the marker after it. */
const TEMPORARY_SUFFIX = new RegExp(`^[0-9a-f]{12}\\${TEMPORARY_FILE_MARKER}$`);
/**
 * A journal's own temporary file, `.<journal name>.<12 hex>.tooldock-tmp`: group 1 is the
 * journal's name, 2 its host tag and 3 its pid.
 */
const JOURNAL_TEMPORARY_NAME = new RegExp(
  `^\\.(([0-9a-f]{8})-(\\d{1,10})-[0-9a-f]{12}\\.journal)\\.[0-9a-f]{12}\\${TEMPORARY_FILE_MARKER}$`,
);
/** Age after which a journal's temporary file of another host, without its journal, is litter. */
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Cleans up after an `ast_edit` apply that was interrupted by a crash (SIGKILL, power loss).
 * It reads only the private journal folder of this user (`<stateDirectory>/ast-edit-journals`,
 * checked owned by this user and not writable by others; nothing happens when it is missing,
 * and only a note when it is not private), never walks the working tree: its cost grows with
 * the number of journals, not with the size of the tree.
 *
 * A journal is acted on only when all of these hold: it is a regular file of this user with
 * mode 0600 whose MAC matches under the folder's key (so this user's `ast_edit` wrote it); its
 * working directory is `cwd` or inside it; its process is gone; every target is inside that
 * working directory; and every temporary file it lists has the name and folder an apply gives
 * it. Then a `prepared` one is rolled back (its temporary files removed), a `committed` one
 * rolled forward (each temporary file still present, owned by this user and holding the
 * staged text, renamed over its target, unless the target no longer holds its before image),
 * then removed. Temporary files are touched only in folders whose real path is still the one
 * recorded.
 *
 * Never throws; returns notes for the model about what it did or could not do.
 */
export async function recoverInterruptedApplies(
  fileSystem: AstEditFileSystem,
  cwd: string,
  options: RecoveryOptions,
): Promise<string[]> {
  const ownerMayBeRunning = options.ownerMayBeRunning ?? processMayBeRunning;
  const realCwd = await fileSystem.realpath(resolve(cwd)).catch(() => undefined);
  if (realCwd === undefined) return [];
  const opened = await openJournalFolder(fileSystem, options.stateDirectory, { create: false });
  if (opened.kind === "absent") return [];
  if (opened.kind === "unsafe")
    return [`ast_edit did not look for interrupted applies, and will not apply, because ${opened.reason}.`];
  const names = await fileSystem.readdir(opened.folder).catch(() => [] as string[]);
  const notes: string[] = [];
  for (const name of [...names].sort()) {
    if (!JOURNAL_NAME.test(name)) continue;
    const journalPath = join(opened.folder, name);
    const read = await readJournal(fileSystem, journalPath, opened.key);
    if (read.kind === "refused") {
      notes.push(`Left ${journalPath} alone: ${read.reason}.`);
      continue;
    }
    const journal = read.journal;
    if (!isInsideFolder(realCwd, journal.cwd) || ownerMayBeRunning(journal)) continue;
    const problem = entryProblem(journal);
    if (problem !== undefined) {
      notes.push(`Left ${journalPath} alone: ${problem}.`);
      continue;
    }
    notes.push(await finish(fileSystem, journalPath, journal, realCwd));
    await removeJournalTemporaryFiles(fileSystem, opened.folder, names, name);
  }
  await removeOrphanJournalTemporaryFiles(fileSystem, opened.folder, names);
  return notes;
}

/** The owner is this process, another host (cannot tell), or a live process on this host. */
export function processMayBeRunning(journal: Pick<ApplyJournal, "hostname" | "pid">): boolean {
  if (journal.hostname !== hostname() || journal.pid === process.pid) return true;
  try {
    process.kill(journal.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Why the entries of `journal` are not ones an apply writes, or `undefined` when they are. */
function entryProblem(journal: ApplyJournal): string | undefined {
  for (const entry of journal.files) {
    if (
      resolve(entry.path) !== entry.path ||
      entry.path === journal.cwd ||
      !isInsideFolder(journal.cwd, entry.path)
    )
      return `it lists ${entry.path}, which is not inside its working directory ${journal.cwd}`;
    const temporaryName = basename(entry.temporaryPath);
    const prefix = `.${basename(entry.path)}.`;
    if (
      resolve(entry.temporaryPath) !== entry.temporaryPath ||
      dirname(entry.temporaryPath) !== dirname(entry.path) ||
      !temporaryName.startsWith(prefix) ||
      !TEMPORARY_SUFFIX.test(temporaryName.slice(prefix.length))
    )
      return `it lists ${entry.temporaryPath}, which is not a temporary file an apply of ${entry.path} makes`;
  }
  return undefined;
}

/** Rolls one journal back or forward, removes it, and says what happened. */
async function finish(
  fileSystem: AstEditFileSystem,
  journalPath: string,
  journal: ApplyJournal,
  realCwd: string,
): Promise<string> {
  const name = (path: string) => relative(realCwd, path).split(sep).join("/");
  if (journal.state === "prepared") {
    for (const entry of journal.files) await removeOwnTemporaryFile(fileSystem, entry);
    await fileSystem.rm(journalPath, { force: true }).catch(() => undefined);
    return `An ast_edit apply was interrupted before it wrote anything; it was rolled back and ${journal.files.length === 1 ? "1 file keeps its" : `${journal.files.length} files keep their`} previous text.`;
  }

  const finished: string[] = [];
  const skipped: string[] = [];
  for (const entry of journal.files) {
    const outcome = await rollForward(fileSystem, entry);
    if (outcome === "written") finished.push(name(entry.path));
    else if (outcome === "skipped") skipped.push(name(entry.path));
  }
  for (const directory of new Set(journal.files.map((entry) => dirname(entry.path))))
    await syncDirectory(fileSystem, directory);
  await fileSystem.rm(journalPath, { force: true }).catch(() => undefined);
  const parts = [
    `An interrupted ast_edit apply of ${count(journal.files.length, "file")} was completed: ` +
      (finished.length > 0 ? `wrote ${finished.join(", ")}.` : "every file had been written."),
  ];
  if (skipped.length > 0)
    parts.push(`Not written because they changed since (check them): ${skipped.join(", ")}.`);
  return parts.join(" ");
}

/**
 * Renames the staged file of `entry` over its target when it is still there, is this user's
 * regular file holding the staged text, in the folder the apply wrote in, and the target
 * still holds its before image. `"done"`: it had been renamed before the crash.
 */
async function rollForward(
  fileSystem: AstEditFileSystem,
  entry: JournalEntry,
): Promise<"written" | "done" | "skipped"> {
  if (!(await stillRealFolder(fileSystem, entry.path))) return "skipped";
  const staged = await fileSystem.lstat(entry.temporaryPath).catch(() => undefined);
  if (staged === undefined) return "done";
  if (!staged.isFile() || !ownedByThisUser(staged.uid)) return "skipped";
  const stagedHash = await hashOfRegularFile(fileSystem, entry.temporaryPath);
  const currentHash = await hashOfRegularFile(fileSystem, entry.path);
  if (stagedHash === entry.afterHash && currentHash === entry.beforeHash) {
    try {
      await fileSystem.rename(entry.temporaryPath, entry.path);
      return "written";
    } catch {
      // reported as skipped
    }
  }
  await removeOwnTemporaryFile(fileSystem, entry);
  return "skipped";
}

/** Removes the temporary file of `entry` when it is this user's regular file in the folder the apply wrote in. */
async function removeOwnTemporaryFile(fileSystem: AstEditFileSystem, entry: JournalEntry): Promise<void> {
  if (!(await stillRealFolder(fileSystem, entry.temporaryPath))) return;
  const stats = await fileSystem.lstat(entry.temporaryPath).catch(() => undefined);
  if (stats?.isFile() && ownedByThisUser(stats.uid))
    await fileSystem.rm(entry.temporaryPath, { force: true }).catch(() => undefined);
}

/** True when the folder of `path` still resolves to itself: no symbolic link was put on the way. */
async function stillRealFolder(fileSystem: AstEditFileSystem, path: string): Promise<boolean> {
  const folder = dirname(path);
  return (await fileSystem.realpath(folder).catch(() => undefined)) === folder;
}

async function hashOfRegularFile(fileSystem: AstEditFileSystem, path: string): Promise<string | undefined> {
  const read = await readRegularFile(fileSystem, path).catch(() => undefined);
  return read?.kind === "file" ? hashContent(read.bytes) : undefined;
}

function ownedByThisUser(uid: number): boolean {
  return typeof process.getuid !== "function" || uid === process.getuid();
}

/** Removes the journal's own temporary files (a crash between writing one and its rename). */
async function removeJournalTemporaryFiles(
  fileSystem: AstEditFileSystem,
  folder: string,
  names: readonly string[],
  journalName: string,
): Promise<void> {
  for (const name of names) {
    if (JOURNAL_TEMPORARY_NAME.exec(name)?.[1] === journalName)
      await fileSystem.rm(join(folder, name), { force: true }).catch(() => undefined);
  }
}

/**
 * Removes the temporary files of journals that do not exist (a crash before the first
 * rename) once their writer is gone: a process of this host that no longer runs, or of
 * another host, a day later.
 */
async function removeOrphanJournalTemporaryFiles(
  fileSystem: AstEditFileSystem,
  folder: string,
  names: readonly string[],
): Promise<void> {
  const present = new Set(names);
  const thisHost = hostTag();
  for (const name of names) {
    const match = JOURNAL_TEMPORARY_NAME.exec(name);
    if (match === null || present.has(match[1] as string)) continue;
    const path = join(folder, name);
    const stats = await fileSystem.lstat(path).catch(() => undefined);
    if (!stats?.isFile() || !ownedByThisUser(stats.uid)) continue;
    const writerGone =
      match[2] === thisHost
        ? !processMayBeRunning({ hostname: hostname(), pid: Number(match[3]) })
        : Date.now() - stats.mtimeMs > ORPHAN_AGE_MS;
    if (writerGone) await fileSystem.rm(path, { force: true }).catch(() => undefined);
  }
}
