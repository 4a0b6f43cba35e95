import { type BigIntStats, constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { AstEditFileSystem } from "./file-system.js";

/** Which file a path named when it was read: device and inode numbers. */
export interface FileIdentity {
  device: bigint;
  inode: bigint;
}

/** What {@link readRegularFile} found. */
export type RegularFileRead =
  | { kind: "file"; bytes: Buffer; identity: FileIdentity; stats: BigIntStats }
  /** Not read: `reason` completes "Skipped <path>: …" or "<path> …" (no final period). */
  | { kind: "refused"; reason: string; tooLarge?: true };

/**
 * Flags of every source read: never block on a FIFO or a device (`O_NONBLOCK`), never follow
 * a symbolic link put in place of the file (`O_NOFOLLOW`), never take a terminal as the
 * controlling one (`O_NOCTTY`). Flags this platform lacks (Windows) are 0.
 */
const READ_FLAGS =
  constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads `path` only if it is a regular file of at most `maxBytes` bytes. FIFOs, sockets,
 * devices and symbolic links are refused before they are opened (`lstat`), and the opened
 * descriptor is checked again (`fstat`: still a regular file, the same one `lstat` saw), so a file swapped for a FIFO between the two calls is not read
 * either: a read of a FIFO would hang a thread of Node's pool, and four such reads hang every
 * later file read of the process.
 *
 * @throws what `lstat`, `open` or the read throw (`ENOENT`, `EACCES`, `ELOOP`, …).
 */
export async function readRegularFile(
  fileSystem: AstEditFileSystem,
  path: string,
  options: { maxBytes?: number } = {},
): Promise<RegularFileRead> {
  const linkStats = await fileSystem.lstat(path, { bigint: true });
  if (!linkStats.isFile()) return { kind: "refused", reason: `is not a regular file (${kindOf(linkStats)})` };
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  if (linkStats.size > BigInt(Math.min(maxBytes, Number.MAX_SAFE_INTEGER)))
    return { kind: "refused", reason: tooLarge(linkStats.size, maxBytes), tooLarge: true };
  const identity = { device: linkStats.dev, inode: linkStats.ino };

  let handle: FileHandle | undefined;
  try {
    handle = await fileSystem.open(path, READ_FLAGS);
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) return { kind: "refused", reason: `is not a regular file (${kindOf(stats)})` };
    if (!sameFile({ device: stats.dev, inode: stats.ino }, identity))
      return { kind: "refused", reason: "was replaced by another file while it was read" };
    if (stats.size > BigInt(Math.min(maxBytes, Number.MAX_SAFE_INTEGER)))
      return { kind: "refused", reason: tooLarge(stats.size, maxBytes), tooLarge: true };
    const bytes = await handle.readFile();
    if (bytes.length > maxBytes)
      return { kind: "refused", reason: tooLarge(BigInt(bytes.length), maxBytes), tooLarge: true };
    return { kind: "file", bytes, identity, stats };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** True when both identities name the same file. */
export function sameFile(left: FileIdentity, right: FileIdentity): boolean {
  return left.device === right.device && left.inode === right.inode;
}

function kindOf(stats: {
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a file";
}

function tooLarge(size: bigint, maxBytes: number): string {
  return `it holds ${size} bytes, more than maxFileBytes (${maxBytes}); ast_edit leaves larger files alone`;
}
