import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import type { AstEditFileSystem } from "./file-system.js";

/** The exact name of an apply journal: `.tooldock-ast-edit-<12 hex digits>.journal`, in `cwd`. */
export const JOURNAL_NAME: RegExp = /^\.tooldock-ast-edit-[0-9a-f]{12}\.journal$/;

/** One file of a multi-file apply: the target, its staged text, and both images' hashes. */
export interface JournalEntry {
  path: string;
  temporaryPath: string;
  /** SHA-256 of the file before the apply (the preview's hash, checked again just before). */
  beforeHash: string;
  /** SHA-256 of the rewritten text, as staged in `temporaryPath`. */
  afterHash: string;
}

/**
 * The intent record of a multi-file apply. `prepared`: temporary files may exist, no target
 * has been replaced; the next start removes them (roll back). `committed`: every temporary
 * file is complete on disk; the next start renames those still present over their targets
 * (roll forward).
 */
export interface ApplyJournal {
  version: 1;
  state: "prepared" | "committed";
  pid: number;
  hostname: string;
  files: JournalEntry[];
}

/** A fresh journal path in `cwd`. */
export function newJournalPath(cwd: string): string {
  return join(cwd, `.tooldock-ast-edit-${randomBytes(6).toString("hex")}.journal`);
}

/** A journal for this process in the `prepared` state. */
export function prepareJournal(files: JournalEntry[]): ApplyJournal {
  return { version: 1, state: "prepared", pid: process.pid, hostname: hostname(), files };
}

/** Writes (or replaces) the journal atomically, so a reader sees the old state or the new one. */
export function writeJournal(
  fileSystem: AstEditFileSystem,
  path: string,
  journal: ApplyJournal,
): Promise<void> {
  return writeFileAtomic(fileSystem, path, `${JSON.stringify(journal, null, 2)}\n`);
}

/** The journal at `path`, or `undefined` when it is not one this version of `ast_edit` wrote. */
export async function readJournal(
  fileSystem: AstEditFileSystem,
  path: string,
): Promise<ApplyJournal | undefined> {
  try {
    const value = JSON.parse((await fileSystem.readFile(path)).toString("utf8")) as Partial<ApplyJournal>;
    const valid =
      value.version === 1 &&
      (value.state === "prepared" || value.state === "committed") &&
      typeof value.pid === "number" &&
      typeof value.hostname === "string" &&
      Array.isArray(value.files) &&
      value.files.every(
        (entry) =>
          typeof entry?.path === "string" &&
          typeof entry.temporaryPath === "string" &&
          typeof entry.beforeHash === "string" &&
          typeof entry.afterHash === "string",
      );
    return valid ? (value as ApplyJournal) : undefined;
  } catch {
    return undefined;
  }
}
