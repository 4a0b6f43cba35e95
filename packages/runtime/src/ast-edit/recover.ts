import { hostname } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type ApplyJournal, JOURNAL_NAME, readJournal } from "./apply-journal.js";
import { syncDirectory, TEMPORARY_FILE_NAME } from "./atomic-write.js";
import type { AstEditFileSystem } from "./file-system.js";
import { hashContent } from "./hash-content.js";
import { SKIPPED_DIRECTORIES } from "./skipped-directories.js";

/** Tells whether the process that wrote a journal may still be running (and applying). */
export type OwnerCheck = (journal: ApplyJournal) => boolean;

/**
 * Cleans up after an `ast_edit` apply that was interrupted by a crash (SIGKILL, power loss):
 *
 * - every apply journal in `cwd`, below it (outside {@link SKIPPED_DIRECTORIES}, not through
 *   symbolic links) or in a directory above it, whose process is gone, is finished: a
 *   `prepared` one is rolled back (its temporary files removed), a `committed` one rolled
 *   forward (each temporary file still present renamed over its target, unless the target
 *   no longer holds its before image), then removed;
 * - every other file below `cwd` named exactly `.<name>.<12 hex>.tooldock-tmp` is removed,
 *   except those a journal of a still-running process lists.
 *
 * Never throws; returns notes for the model about what it did or could not do.
 */
export async function recoverInterruptedApplies(
  fileSystem: AstEditFileSystem,
  cwd: string,
  ownerMayBeRunning: OwnerCheck = processMayBeRunning,
): Promise<string[]> {
  const root = resolve(cwd);
  const found = await scan(fileSystem, root);
  const keep = new Set<string>();
  const notes: string[] = [];

  for (const journalPath of found.journals) {
    const journal = await readJournal(fileSystem, journalPath);
    if (journal === undefined) {
      notes.push(`Left ${journalPath} alone: it is not an ast_edit journal this version can read.`);
      continue;
    }
    if (ownerMayBeRunning(journal)) {
      for (const entry of journal.files) keep.add(entry.temporaryPath);
      continue;
    }
    const outside = journal.files.filter((entry) => !isInside(root, entry.path));
    if (outside.length > 0) {
      for (const entry of journal.files) keep.add(entry.temporaryPath);
      notes.push(
        `An interrupted ast_edit apply (${journalPath}) also covers files outside ${root}; ` +
          `run ast_edit with cwd ${dirname(journalPath)} to finish it.`,
      );
      continue;
    }
    notes.push(await finish(fileSystem, journalPath, journal, root));
  }

  for (const temporaryPath of found.temporaryFiles) {
    if (!keep.has(temporaryPath)) await fileSystem.rm(temporaryPath, { force: true }).catch(() => undefined);
  }
  return notes;
}

/** The owner is this process, another host (cannot tell), or a live process on this host. */
export function processMayBeRunning(journal: ApplyJournal): boolean {
  if (journal.hostname !== hostname() || journal.pid === process.pid) return true;
  try {
    process.kill(journal.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Rolls one journal back or forward, removes it, and says what happened. */
async function finish(
  fileSystem: AstEditFileSystem,
  journalPath: string,
  journal: ApplyJournal,
  root: string,
): Promise<string> {
  const name = (path: string) => relative(root, path).split(sep).join("/");
  if (journal.state === "prepared") {
    for (const entry of journal.files)
      await fileSystem.rm(entry.temporaryPath, { force: true }).catch(() => undefined);
    await fileSystem.rm(journalPath, { force: true }).catch(() => undefined);
    return `An ast_edit apply was interrupted before it wrote anything; it was rolled back and ${journal.files.length} file(s) keep their previous text.`;
  }

  const finished: string[] = [];
  const skipped: string[] = [];
  for (const entry of journal.files) {
    const staged = await fileSystem.lstat(entry.temporaryPath).then(
      (stats) => stats.isFile(),
      () => false,
    );
    if (!staged) continue; // renamed before the crash
    const current = await fileSystem.readFile(entry.path).then(hashContent, () => undefined);
    if (current === entry.beforeHash) {
      try {
        await fileSystem.rename(entry.temporaryPath, entry.path);
        finished.push(name(entry.path));
        continue;
      } catch {
        // reported below
      }
    }
    skipped.push(name(entry.path));
    await fileSystem.rm(entry.temporaryPath, { force: true }).catch(() => undefined);
  }
  for (const directory of new Set(journal.files.map((entry) => dirname(entry.path))))
    await syncDirectory(fileSystem, directory);
  await fileSystem.rm(journalPath, { force: true }).catch(() => undefined);
  const parts = [
    `An interrupted ast_edit apply of ${journal.files.length} file(s) was completed: ` +
      (finished.length > 0 ? `wrote ${finished.join(", ")}.` : "every file had been written."),
  ];
  if (skipped.length > 0)
    parts.push(`Not written because they changed since (check them): ${skipped.join(", ")}.`);
  return parts.join(" ");
}

interface Found {
  journals: Set<string>;
  temporaryFiles: string[];
}

/** Journals and temporary files below `root`, plus journals in the directories above it. */
async function scan(fileSystem: AstEditFileSystem, root: string): Promise<Found> {
  const found: Found = { journals: new Set(), temporaryFiles: [] };
  for (let directory = dirname(root); ; directory = dirname(directory)) {
    const names = await fileSystem.readdir(directory).catch(() => [] as string[]);
    for (const name of names) if (JOURNAL_NAME.test(name)) found.journals.add(join(directory, name));
    if (dirname(directory) === directory) break;
  }
  const walk = async (directory: string): Promise<void> => {
    const entries = await fileSystem.readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.includes(entry.name)) await walk(path);
      } else if (entry.isFile()) {
        if (JOURNAL_NAME.test(entry.name)) found.journals.add(path);
        else if (TEMPORARY_FILE_NAME.test(entry.name)) found.temporaryFiles.push(path);
      }
    }
  };
  await walk(root);
  return found;
}

function isInside(root: string, candidate: string): boolean {
  const path = relative(root, candidate);
  return path !== "" && !path.startsWith(`..${sep}`) && path !== ".." && !isAbsolute(path);
}
