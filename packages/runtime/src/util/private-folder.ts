import { lstatSync, type Stats } from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * The outcome of checking a private folder: `ok`, or the folder that failed (the checked
 * folder or one of its parents up to the root) and why, in words a user can act on.
 */
export type PrivateFolderCheck =
  | { ok: true }
  | {
      ok: false;
      folder: string;
      reason: string;
      /** Set when `ensurePrivateFolder` could not create it (not a matter of who may write it). */
      unwritable?: true;
    };

/** Group- and other-write bits of a mode. */
const SHARED_WRITE_BITS = 0o022;
/** Mode of the folders `ensurePrivateFolder` creates. */
const PRIVATE_FOLDER_MODE = 0o700;

/**
 * The per-user folder Tooldock keeps its files in.
 *
 * - `"cache"`: `$XDG_CACHE_HOME/tooldock`, else `<home>/.cache/tooldock`.
 * - `"state"`: `$XDG_STATE_HOME/tooldock`, else `<home>/.local/state/tooldock`.
 *
 * A relative `XDG_*` value is ignored, as the XDG Base Directory spec says. `<home>` is an
 * absolute `HOME` of `env`, else `os.homedir()`.
 *
 * @example
 * defaultUserFolder("cache", { XDG_CACHE_HOME: "/home/ada/.cache" }); // "/home/ada/.cache/tooldock"
 */
export function defaultUserFolder(kind: "cache" | "state", env: NodeJS.ProcessEnv = process.env): string {
  const xdg = kind === "cache" ? env.XDG_CACHE_HOME : env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg !== "" && isAbsolute(xdg)) return join(xdg, "tooldock");
  const home = env.HOME !== undefined && env.HOME !== "" && isAbsolute(env.HOME) ? env.HOME : homedir();
  return kind === "cache" ? join(home, ".cache", "tooldock") : join(home, ".local", "state", "tooldock");
}

/**
 * Checks that `folder` and each parent up to and including `root` exists, is a real
 * directory (not a symbolic link), is owned by the current user and is not writable by group
 * or others. Where the platform has no user ids or POSIX modes (`process.getuid` is absent,
 * as on Windows) only the first two are checked. Never throws.
 *
 * @param folder the folder about to be read from; must be `root` or inside it.
 * @param root the highest folder that must be private (e.g. the cache root).
 */
export async function checkPrivateFolder(folder: string, root: string): Promise<PrivateFolderCheck> {
  const chain = folderChain(folder, root);
  if (!chain.ok) return chain;
  for (let index = 0; index < chain.paths.length; index++) {
    const path = chain.paths[index] as string;
    let stats: Stats;
    try {
      stats = await lstat(path);
    } catch (error) {
      return unreadable(path, error);
    }
    const verdict = judge(path, stats);
    if (!verdict.ok) return verdict;
  }
  return { ok: true };
}

/** `checkPrivateFolder`, synchronously. */
export function checkPrivateFolderSync(folder: string, root: string): PrivateFolderCheck {
  const chain = folderChain(folder, root);
  if (!chain.ok) return chain;
  for (let index = 0; index < chain.paths.length; index++) {
    const path = chain.paths[index] as string;
    let stats: Stats;
    try {
      stats = lstatSync(path);
    } catch (error) {
      return unreadable(path, error);
    }
    const verdict = judge(path, stats);
    if (!verdict.ok) return verdict;
  }
  return { ok: true };
}

/**
 * `mkdir -p folder` with mode `0o700` for the folders it creates, then `checkPrivateFolder`
 * from `folder` up to `root`. Folders that already exist keep their mode: a shared one fails
 * the check rather than being changed. Never throws: file-system errors become
 * `{ ok: false, reason }`.
 */
export async function ensurePrivateFolder(folder: string, root: string): Promise<PrivateFolderCheck> {
  const chain = folderChain(folder, root);
  if (!chain.ok) return chain;
  try {
    await mkdir(resolve(folder), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  } catch (error) {
    return {
      ok: false,
      folder: resolve(folder),
      reason: `could not be created (${errorText(error)})`,
      unwritable: true,
    };
  }
  return checkPrivateFolder(folder, root);
}

/** `folder`, its parents, up to `root`, innermost first; a failure when `folder` is not under `root`. */
function folderChain(
  folder: string,
  root: string,
): { ok: true; paths: string[] } | { ok: false; folder: string; reason: string } {
  const top = resolve(root);
  let path = resolve(folder);
  const inside = relative(top, path);
  if (inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside))
    return { ok: false, folder: path, reason: `is not inside ${top}` };
  const paths = [path];
  while (path !== top) {
    path = dirname(path);
    paths[paths.length] = path;
  }
  return { ok: true, paths };
}

function judge(path: string, stats: Stats): PrivateFolderCheck {
  if (stats.isSymbolicLink())
    return { ok: false, folder: path, reason: "is a symbolic link, not a real folder" };
  if (!stats.isDirectory()) return { ok: false, folder: path, reason: "is not a folder" };
  // No user ids or POSIX modes (Windows): the mode bits there are synthetic.
  if (typeof process.getuid !== "function") return { ok: true };
  const uid = process.getuid();
  if (stats.uid !== uid)
    return {
      ok: false,
      folder: path,
      reason: `is owned by user id ${stats.uid}, not by you (user id ${uid})`,
    };
  if ((stats.mode & SHARED_WRITE_BITS) !== 0)
    return {
      ok: false,
      folder: path,
      reason: `is writable by group or others (mode ${(stats.mode & 0o777).toString(8).padStart(3, "0")})`,
    };
  return { ok: true };
}

function unreadable(path: string, error: unknown): PrivateFolderCheck {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return { ok: false, folder: path, reason: "does not exist" };
  return { ok: false, folder: path, reason: `could not be checked (${errorText(error)})` };
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : String(error);
}
