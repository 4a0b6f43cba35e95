import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { hostname } from "node:os";
import { isAbsolute, join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import type { AstEditFileSystem } from "./file-system.js";
import { privateFileProblem } from "./journal-key.js";
import { readRegularFile } from "./read-regular-file.js";

/**
 * The exact name of an apply journal in the journal folder:
 * `<host tag>-<pid>-<12 hex digits>.journal`, where the host tag is the first 8 hex digits of
 * the SHA-256 of the host name. The name tells, before the journal is read, whether its
 * writer may still run: recovery uses it for the journal's temporary files, which have no MAC.
 */
export const JOURNAL_NAME: RegExp = /^([0-9a-f]{8})-(\d{1,10})-[0-9a-f]{12}\.journal$/;

/** Most bytes of a journal read back (a journal lists paths and hashes, a few hundred bytes per file). */
const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** One file of a multi-file apply: the target, its staged text, and both images' hashes. */
export interface JournalEntry {
  /** The target's real path, inside the journal's `cwd`. */
  path: string;
  /** `.<name>.<12 hex digits>.tooldock-tmp` beside `path`. */
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
  version: 2;
  state: "prepared" | "committed";
  pid: number;
  hostname: string;
  /** The real path of the working directory of the apply: every target is inside it. */
  cwd: string;
  files: JournalEntry[];
}

/** A fresh journal path in the journal folder, for this process on this host. */
export function newJournalPath(folder: string): string {
  return join(folder, `${hostTag()}-${process.pid}-${randomBytes(6).toString("hex")}.journal`);
}

/** The first 8 hex digits of the SHA-256 of `name` (default: this host's name). */
export function hostTag(name: string = hostname()): string {
  return createHash("sha256").update(name).digest("hex").slice(0, 8);
}

/** A journal for this process in the `prepared` state. */
export function prepareJournal(cwd: string, files: JournalEntry[]): ApplyJournal {
  return { version: 2, state: "prepared", pid: process.pid, hostname: hostname(), cwd, files };
}

/**
 * Writes (or replaces) the journal atomically, mode 0600, so a reader sees the old state or
 * the new one. The file is `<HMAC-SHA256 of the body, hex>\n<body: JSON>\n`, signed with the
 * key of the journal folder: recovery acts only on journals that carry a valid MAC.
 */
export function writeJournal(
  fileSystem: AstEditFileSystem,
  path: string,
  journal: ApplyJournal,
  key: Buffer,
): Promise<void> {
  const body = JSON.stringify(journal);
  return writeFileAtomic(fileSystem, path, `${mac(key, body)}\n${body}\n`, { mode: 0o600 });
}

/** What {@link readJournal} found; `reason` is a clause such as "its MAC does not match". */
export type JournalRead = { kind: "journal"; journal: ApplyJournal } | { kind: "refused"; reason: string };

/**
 * The journal at `path` when this user's `ast_edit` wrote it: a regular file owned by this
 * user with mode 0600, whose MAC matches its body under `key`, and whose body is a journal of
 * this version with absolute paths. Otherwise why not. Never throws.
 */
export async function readJournal(
  fileSystem: AstEditFileSystem,
  path: string,
  key: Buffer,
): Promise<JournalRead> {
  let text: string;
  try {
    const read = await readRegularFile(fileSystem, path, { maxBytes: MAX_JOURNAL_BYTES });
    if (read.kind === "refused") return { kind: "refused", reason: `it ${read.reason}` };
    const problem = privateFileProblem(read.stats);
    if (problem !== undefined) return { kind: "refused", reason: `it ${problem}` };
    text = read.bytes.toString("utf8");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "refused", reason: `it cannot be read (${message})` };
  }
  const newline = text.indexOf("\n");
  const written = Buffer.from(text.slice(0, newline), "utf8");
  const body = text.slice(newline + 1).replace(/\n$/, "");
  const expected = Buffer.from(mac(key, body), "utf8");
  if (newline === -1 || written.length !== expected.length || !timingSafeEqual(written, expected))
    return {
      kind: "refused",
      reason: "its MAC does not match: ast_edit did not write it, or it was cut short",
    };
  let value: Partial<ApplyJournal>;
  try {
    value = JSON.parse(body) as Partial<ApplyJournal>;
  } catch {
    return { kind: "refused", reason: "its body is not JSON" };
  }
  return isJournal(value)
    ? { kind: "journal", journal: value }
    : { kind: "refused", reason: "it is not a journal this version of ast_edit can read" };
}

function mac(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body, "utf8").digest("hex");
}

function isJournal(value: Partial<ApplyJournal>): value is ApplyJournal {
  return (
    value.version === 2 &&
    (value.state === "prepared" || value.state === "committed") &&
    Number.isSafeInteger(value.pid) &&
    typeof value.hostname === "string" &&
    typeof value.cwd === "string" &&
    isAbsolute(value.cwd) &&
    Array.isArray(value.files) &&
    value.files.every(
      (entry: Partial<JournalEntry> | null) =>
        typeof entry?.path === "string" &&
        isAbsolute(entry.path) &&
        typeof entry.temporaryPath === "string" &&
        isAbsolute(entry.temporaryPath) &&
        typeof entry.beforeHash === "string" &&
        SHA256_HEX.test(entry.beforeHash) &&
        typeof entry.afterHash === "string" &&
        SHA256_HEX.test(entry.afterHash),
    )
  );
}
