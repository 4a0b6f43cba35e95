import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Cache files are the user's own: read and written by them only. */
const FILE_MODE = 0o600;
/** Folders the cache creates (the cache folder itself is checked before use). */
const FOLDER_MODE = 0o700;

function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}

/**
 * Writes a file so that readers see the old content or the new one, never a part: the data
 * goes to a temporary file beside the target (mode `0600`), flushed to the disk (`fsync`),
 * which is then renamed over it. Without the flush, a crash soon after the rename can leave
 * the new name on an empty or partial file (ext4's delayed allocation does). Synchronous: for
 * the many small files of a batch build, a few system calls each.
 *
 * `flush: false` skips the `fsync`, for a file whose reader checks it whole (a code cache
 * headed by its SHA-256) and so may meet it cut short: Node 20's permission model refuses
 * `fsync`, and a tool host runs under it.
 */
export function writeFileAtomicSync(
  path: string,
  content: string | Uint8Array,
  { flush = true }: { flush?: boolean } = {},
): void {
  mkdirSync(dirname(path), { recursive: true, mode: FOLDER_MODE });
  const temporary = temporaryPath(path);
  try {
    writeFileSync(temporary, content, { encoding: "utf8", mode: FILE_MODE, flag: "wx", flush });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
