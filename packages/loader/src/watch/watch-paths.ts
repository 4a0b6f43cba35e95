import { existsSync, type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname, extname, join, relative, sep } from "node:path";
import { isWithin } from "../discover/expand-path.js";
import { isFolder } from "./linked-locations.js";

/** Extensions whose change triggers a reload: tool modules, what they import, and config. */
const WATCHED_EXTENSIONS = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".json"]);

/**
 * Node 20 and 22 watch a folder recursively on Linux file by file, and a file an editor
 * replaced (written beside it, then renamed over it: an atomic save) or deleted and made
 * again is watched no more: its next edit goes unseen. There a folder's watcher is made anew
 * after each change it reports (a walk of the folder, once per burst of changes).
 */
const REARM = process.platform === "linux" && Number(process.versions.node.split(".")[0]) < 24;

/** Folders whose changes never count: installed packages (and the compile cache), VCS data. */
const IGNORED_SEGMENTS: ReadonlySet<string> = new Set(["node_modules", ".git", ".hg", ".svn"]);

export interface PathWatch {
  /** Stops every watcher. Idempotent. */
  close(): void;
}

/**
 * Watches each absolute location with `node:fs` `watch` and calls `onChange` with the absolute
 * path of a file that changed. A folder is watched recursively (Node 20 supports that on Linux,
 * macOS and Windows); a file through its folder (editors often replace a file by renaming
 * another over it, which ends a watcher on the file itself), only its own changes counting. A
 * change counts when the file has a module or `.json` extension, no folder on its way is one of
 * IGNORED_SEGMENTS (so the default compile cache, under `node_modules/.cache`, never triggers a
 * reload) and it is not inside one of `ignoredFolders` (the compile cache wherever it is). A
 * folder that comes or goes inside a watched folder (a tool folder moved in or out) counts too,
 * as its path. A watched folder that is removed is reported as its own path, then waited for in
 * its nearest folder that still exists: made again, it is watched anew and reported once more.
 * A location that cannot be watched (missing, unreadable) and a watcher that fails later go to
 * `onError`.
 */
export function watchPaths(
  locations: readonly string[],
  onChange: (path: string) => void,
  onError: (error: unknown, location: string) => void,
  ignoredFolders: readonly string[] = [],
): PathWatch {
  const ignored = (path: string) => ignoredFolders.some((folder) => isWithin(path, folder));
  const watchers = new Set<FSWatcher>();
  let closed = false;
  /** Watches `folder`; its failures go to `onError` as `location`'s. */
  const open = (
    folder: string,
    location: string,
    recursive: boolean,
    listener: (event: string, name: string) => void,
  ) => {
    const watcher = watch(folder, { recursive, persistent: true }, (event, name) => {
      if (name !== null) listener(event, String(name));
    });
    watchers.add(watcher);
    watcher.on("error", (error) => onError(error, location));
    return watcher;
  };
  const drop = (watcher: FSWatcher) => {
    watcher.close();
    watchers.delete(watcher);
  };
  /** Runs `work`, what it throws going to `onError` as `location`'s; whether it ran through. */
  const attempt = (location: string, work: () => void): boolean => {
    try {
      work();
      return true;
    } catch (error) {
      onError(error, location);
      return false;
    }
  };

  /** Watches the folder `location` recursively; when the folder itself goes, waits for it to come back. */
  const watchFolder = (location: string) => {
    let rearming = false;
    /** After a change, on Node 20 and 22 (see REARM): a new watcher, once the change is reported. */
    const rearm = () => {
      if (!REARM || rearming) return;
      rearming = true;
      setImmediate(() => {
        if (closed || !watchers.has(watcher)) return;
        drop(watcher);
        attempt(location, () => isFolder(location) && watchFolder(location));
      });
    };
    const watcher = open(location, location, true, (event, relative) => {
      // The folder itself removed (or renamed away): its watcher sees nothing more.
      if (event === "rename" && !existsSync(location)) {
        drop(watcher);
        onChange(location);
        if (!closed) watchForReturn(location);
        return;
      }
      const path = join(location, relative);
      // A folder that came or went (a tool folder moved in or out): no extension, and now a
      // folder or gone (a file without one, `LICENSE`, does not count).
      const folderMoved =
        event === "rename" &&
        relative !== "" &&
        extname(relative) === "" &&
        !inIgnored(relative) &&
        (isFolder(path) || !existsSync(path));
      if ((!folderMoved && !counts(relative)) || ignored(path)) return;
      rearm(); // only for a change that counts: the compile cache's writes re-walk nothing
      onChange(path);
    });
  };

  /**
   * Waits for a removed folder to be made again, then watches it anew: through its nearest
   * folder that still exists (its parent, or further up when that went too), one level
   * nearer each time a folder on its way comes back.
   */
  const watchForReturn = (location: string) => {
    let waitIn = dirname(location);
    while (!isFolder(waitIn) && dirname(waitIn) !== waitIn) waitIn = dirname(waitIn);
    const next = join(waitIn, relative(waitIn, location).split(sep)[0] as string);
    let watcher: FSWatcher;
    try {
      watcher = open(waitIn, location, false, (_event, entry) => {
        // The folder waited in went too (removed after its child): wait further up.
        const gone = !isFolder(waitIn);
        if (!gone && (join(waitIn, entry) !== next || !isFolder(next))) return;
        drop(watcher);
        if (closed) return;
        if (gone || next !== location) {
          watchForReturn(location); // wait where the way to it now ends
          return;
        }
        if (attempt(location, () => watchFolder(location))) onChange(location);
      });
    } catch (error) {
      // Removed between the look and the watch: look again, further up.
      if ((error as { code?: unknown }).code === "ENOENT" && !isFolder(waitIn)) watchForReturn(location);
      else onError(error, location);
      return;
    }
    // Made again before the watch began: seen now.
    if (isFolder(next)) watcher.emit("change", "rename", basename(next));
  };

  for (const location of locations) {
    attempt(location, () => {
      if (statSync(location).isDirectory()) {
        watchFolder(location);
        return;
      }
      const only = basename(location);
      open(dirname(location), location, false, (_event, name) => {
        if (name === only && counts(name) && !ignored(location)) onChange(location);
      });
    });
  }
  return {
    close() {
      if (closed) return;
      closed = true;
      for (const watcher of watchers) watcher.close();
      watchers.clear();
    },
  };
}

/**
 * Watches the entry `path` itself in its folder, not what it leads to: a symbolic link pointed
 * elsewhere, removed, or replaced by a file or folder calls `onChange(path)`. A recursive watch
 * misses those: it watches where a link leads. A folder that cannot be watched goes to `onError`.
 */
export function watchEntry(
  path: string,
  onChange: (path: string) => void,
  onError: (error: unknown, location: string) => void,
): PathWatch {
  const name = basename(path);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), { persistent: true }, (_event, entry) => {
      if (entry !== null && String(entry) === name) onChange(path);
    });
    watcher.on("error", (error) => onError(error, path));
  } catch (error) {
    onError(error, path);
  }
  return {
    close() {
      watcher?.close();
      watcher = undefined;
    },
  };
}

function inIgnored(relative: string): boolean {
  return relative.split(sep).some((segment) => IGNORED_SEGMENTS.has(segment));
}

function counts(relative: string): boolean {
  if (!WATCHED_EXTENSIONS.has(extname(relative).toLowerCase())) return false;
  return !inIgnored(relative);
}
