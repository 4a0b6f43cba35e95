import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname, extname, join, sep } from "node:path";
import { isWithin } from "../discover/expand-path.js";

/** Extensions whose change triggers a reload: tool modules, what they import, and config. */
const WATCHED_EXTENSIONS: ReadonlySet<string> = new Set([
  ".ts",
  ".mts",
  ".cts",
  ".tsx",
  ".js",
  ".mjs",
  ".cjs",
  ".jsx",
  ".json",
]);

/** Folders whose changes never count: installed packages (and the compile cache), VCS data. */
const IGNORED_SEGMENTS: ReadonlySet<string> = new Set(["node_modules", ".git", ".hg", ".svn"]);

/** Watches tool locations; see {@link watchPaths}. */
export interface PathWatch {
  /** Stops every watcher. Idempotent. */
  close(): void;
}

/**
 * Watches each absolute location with `node:fs` `watch` and calls `onChange` with the
 * absolute path of a file that changed. A folder is watched recursively (Node 20 supports
 * that on Linux, macOS and Windows); a file is watched through its folder (editors often
 * replace a file by renaming another over it, which ends a watcher on the file itself), and
 * only that file's changes count. A change counts when the file has a module or `.json`
 * extension and no folder on its way is `node_modules`, `.git`, `.hg` or `.svn` (so the
 * default compile cache, under `node_modules/.cache`, never triggers a reload), nor is it
 * inside one of `ignoredFolders` (the compile cache wherever it is). A location that
 * cannot be watched (missing, unreadable) and a watcher that fails later go to `onError`.
 */
export function watchPaths(
  locations: readonly string[],
  onChange: (path: string) => void,
  onError: (error: unknown, location: string) => void,
  ignoredFolders: readonly string[] = [],
): PathWatch {
  const ignored = (path: string) => ignoredFolders.some((folder) => isWithin(path, folder));
  const watchers: FSWatcher[] = [];
  for (const location of locations) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(location).isDirectory();
    } catch (error) {
      onError(error, location);
      continue;
    }
    const folder = isDirectory ? location : dirname(location);
    const only = isDirectory ? undefined : basename(location);
    try {
      const watcher = watch(folder, { recursive: isDirectory, persistent: true }, (_event, name) => {
        if (name === null) return;
        const relative = String(name);
        if (only !== undefined && relative !== only) return;
        if (!counts(relative)) return;
        const path = join(folder, relative);
        if (!ignored(path)) onChange(path);
      });
      watcher.on("error", (error) => onError(error, location));
      watchers.push(watcher);
    } catch (error) {
      onError(error, location);
    }
  }
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      for (const watcher of watchers) watcher.close();
    },
  };
}

function counts(relative: string): boolean {
  if (!WATCHED_EXTENSIONS.has(extname(relative).toLowerCase())) return false;
  return !relative.split(sep).some((segment) => IGNORED_SEGMENTS.has(segment));
}
