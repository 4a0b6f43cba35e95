import { readdir, readFile, realpath, stat } from "node:fs/promises";

/** The few file-system calls discovery makes; tests replace them to simulate faults. */
export interface DiscoveryFileSystem {
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean }>;
  realpath(path: string): Promise<string>;
  readdir(
    path: string,
  ): Promise<Array<{ name: string; isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }>>;
  readFile(path: string): Promise<string>;
}

/** The real file system. */
export const nodeDiscoveryFileSystem: DiscoveryFileSystem = {
  stat: (path) => stat(path),
  realpath: (path) => realpath(path),
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
