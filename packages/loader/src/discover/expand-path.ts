import { homedir } from "node:os";
import { isAbsolute, join, resolve, sep } from "node:path";

/**
 * Turns a user-given tool location into an absolute path: `~` and `~/…` expand to the home
 * directory, relative paths resolve against `cwd`.
 */
export function expandPath(path: string, cwd: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** What `read` returns, or `fallback` when it throws (a file-system fault counted as nothing there, a text that does not parse). */
export function orElse<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** Whether `path` is `root` or inside it (both absolute; a root of `/` included). */
export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}
