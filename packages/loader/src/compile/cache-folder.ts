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
 * Makes sure a compile cache is private before anything is read from it (another user who
 * could write there could plant a pack that the next load runs): creates the missing folders
 * (mode `0700`), then checks each is a real folder of the current user's that group and others
 * cannot write. An existing folder is never changed. Synchronous, and never throws.
 */
export function openCacheFolder(cacheDir: string): CacheFolderState {
  const folders = [cacheDir, ...CACHE_SUBFOLDERS.map((name) => join(cacheDir, name))];
  for (const [index, folder] of folders.entries()) {
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
 * Whether a cache file may be read or imported (`bytes`: and is that long): a regular file of
 * the current user's that group and others cannot write, as the loader writes them (`0600`).
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
