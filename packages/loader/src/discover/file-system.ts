import { lstatSync, realpathSync, statSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";

/** What discovery reads of a file's stat. */
export type EntryStats = { isFile(): boolean; isDirectory(): boolean };

/** The few file-system calls discovery makes; tests replace them to simulate faults. */
export interface DiscoveryFileSystem {
  stat(path: string): Promise<EntryStats>;
  /**
   * Synchronous stat for the many small checks of a scan (index candidates, `package.json`):
   * `undefined` when nothing is there (`ENOENT`), throws on any other fault. A synchronous
   * stat is a few µs; a promise one waits for a thread-pool round trip.
   */
  statIfExists(path: string): EntryStats | undefined;
  /** Synchronous, for the same reason (one per module found). */
  realpath(path: string): string;
  /**
   * {@link statIfExists} without following a symbolic link. Optional: with it, a module that
   * is no link, in a folder that is none either, gets its real path by joining names onto its
   * folder's real path instead of a `realpath` (which reads every link of the path again).
   */
  lstatIfExists?(path: string): (EntryStats & { isSymbolicLink(): boolean }) | undefined;
  readdir(path: string): Promise<Array<EntryStats & { name: string; isSymbolicLink(): boolean }>>;
  readFile(path: string): Promise<string>;
}

export const nodeDiscoveryFileSystem: DiscoveryFileSystem = {
  stat: (path) => stat(path),
  statIfExists: (path) => statSync(path, { throwIfNoEntry: false }),
  realpath: (path) => realpathSync.native(path),
  // Not where file systems ignore case by default: `lstat("folder/index.ts")` also finds
  // `folder/Index.ts`, and only `realpath` gives the name as the disk spells it.
  ...(process.platform === "darwin" || process.platform === "win32"
    ? {}
    : { lstatIfExists: (path: string) => lstatSync(path, { throwIfNoEntry: false }) }),
  readdir: (path) => readdir(path, { withFileTypes: true }),
  readFile: (path) => readFile(path, "utf8"),
};

/** A short reason for a file-system error (`ENOENT` → "does not exist", …). */
export function describeFileSystemError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "ENOENT":
      return "does not exist";
    case "EACCES":
    case "EPERM":
      return "cannot be read (permission denied)";
    case "ELOOP":
      return "is a symbolic link loop";
    case "ENOTDIR":
      return "has a file where a directory is expected in its path";
    default:
      return `cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
}
