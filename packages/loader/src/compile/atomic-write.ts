import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Cache files are the user's own: read and written by them only. */
const FILE_MODE = 0o600;
/** Folders the cache creates (the cache folder itself is checked before use). */
const FOLDER_MODE = 0o700;

/**
 * Writes a file so that readers see the old content or the new one, never a part: a temporary
 * file beside it (mode `0600`), flushed (`fsync`: else a crash soon after the rename can leave
 * the new name on an empty or partial file, as ext4's delayed allocation does), renamed over
 * it. Synchronous: a few system calls for each of a batch build's many small files.
 *
 * `flush: false` skips the `fsync`, for a file whose reader checks it whole (a code cache headed
 * by its SHA-256): Node 20's permission model, which a tool host runs under, refuses `fsync`.
 */
export function writeFileAtomicSync(
  path: string,
  content: string | Uint8Array,
  { flush = true }: { flush?: boolean } = {},
): void {
  mkdirSync(dirname(path), { recursive: true, mode: FOLDER_MODE });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, content, { encoding: "utf8", mode: FILE_MODE, flag: "wx", flush });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
