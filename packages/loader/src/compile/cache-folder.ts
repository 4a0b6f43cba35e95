import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { checkPrivateFolderSync } from "@tooldock/runtime";
import { describeError } from "../diagnostics.js";

/** The folders of a compile cache, each checked before anything in it is read. */
export const CACHE_SUBFOLDERS = ["index", "bundles", "maps", "jiti"] as const;

/** Group- and other-write bits of a mode. */
const SHARED_WRITE_BITS = 0o022;

/** Whether a compile cache may be read from, and when not, why. */
export type CacheFolderState =
  | { usable: true }
  | {
      usable: false;
      /** `unsafe`: someone else could have put files in it; `unwritable`: it could not be created. */
      problem: "unsafe" | "unwritable";
      /** The folder that failed: the cache folder or one of its subfolders. */
      folder: string;
      reason: string;
    };

/**
 * Makes sure a compile cache is private before the loader reads or imports anything from it:
 * creates the cache folder and its subfolders (mode `0700`) when missing, then checks each is
 * a real folder owned by the current user and not writable by group or others (see
 * `checkPrivateFolder`). Another user who could write there could plant a bundle that the
 * next load runs. A folder that already exists is never changed. Synchronous (a few system
 * calls) and never throws.
 */
export function openCacheFolder(cacheDir: string): CacheFolderState {
  const folders = [cacheDir, ...CACHE_SUBFOLDERS.map((name) => join(cacheDir, name))];
  for (let index = 0; index < folders.length; index++) {
    const folder = folders[index] as string;
    const root = index === 0 ? cacheDir : folder;
    // A warm start finds every folder: one lstat each, no mkdir (which stats on top of it).
    let check = checkPrivateFolderSync(folder, root);
    if (!check.ok) {
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
      } catch (error) {
        // Nothing is read from a cache that could not be created (a file in its place, a
        // read-only disk): the load goes on without one.
        return { usable: false, problem: "unwritable", folder, reason: describeError(error) };
      }
      check = checkPrivateFolderSync(folder, root);
    }
    if (!check.ok) return { usable: false, problem: "unsafe", folder: check.folder, reason: check.reason };
  }
  return { usable: true };
}

/**
 * Whether a file in the cache may be read or imported: a regular file (not a link), owned by
 * the current user and not writable by group or others. Files the loader writes always pass
 * (mode `0600`); a file left from a time the folder was shared does not, and is rebuilt.
 */
export function isOwnPrivateFile(path: string, bytes?: number): boolean {
  try {
    const stats = lstatSync(path);
    if (!stats.isFile()) return false;
    if (bytes !== undefined && stats.size !== bytes) return false;
    if (typeof process.getuid !== "function") return true;
    return stats.uid === process.getuid() && (stats.mode & SHARED_WRITE_BITS) === 0;
  } catch {
    return false;
  }
}
