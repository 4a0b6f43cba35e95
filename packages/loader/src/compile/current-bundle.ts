import { existsSync, readFileSync, type Stats, statSync } from "node:fs";
import { type BundleIndexEntry, bundlePath, packPath, readBundleIndex } from "./bundle-index.js";
import { isOwnPrivateFile } from "./cache-folder.js";
import { findTsconfig, type TsconfigMemo } from "./find-tsconfig.js";
import { hash } from "./hash.js";
import { ensureHostModules, hostModuleSourceHash } from "./host-modules.js";
import { fingerprintMatches, fingerprintOf } from "./input-fingerprint.js";

/** A cached bundle proven current, and the index to write back when stats were refreshed. */
export interface CurrentBundle {
  recorded: BundleIndexEntry;
  /**
   * Set when an input's stat did not match but its content did, and its stat can now be
   * trusted: the same entry with fresh fingerprints, so the next check needs no hashing.
   */
  refreshed: BundleIndexEntry | undefined;
}

/**
 * The cached bundle of an entry when nothing it was built from has changed: same compiler
 * context, same tsconfig, every input unchanged, same host module exports and every external
 * package still in place. Never imports esbuild, and all file access is synchronous.
 *
 * An input counts as unchanged when its stat fingerprint (size, mtime, ctime, inode) is
 * exactly the recorded one; otherwise its content is hashed and compared, so an edit is
 * always seen (a file changed too recently when recorded has no fingerprint: see
 * `fingerprintOf`). `tsconfigs` shares the tsconfig lookup between the entries of a batch.
 */
export async function findCurrentBundle(
  cacheDir: string,
  entry: string,
  context: string,
  tsconfigs: TsconfigMemo,
): Promise<CurrentBundle | undefined> {
  const recorded = readBundleIndex(cacheDir, entry);
  if (recorded === undefined || recorded.context !== context) return undefined;
  // A bundle (or the pack that holds the entry) that is not the loader's own file is rebuilt
  // (and replaced), never imported.
  const code =
    recorded.pack === undefined ? bundlePath(cacheDir, recorded.key) : packPath(cacheDir, recorded.pack.id);
  if (!isOwnPrivateFile(code)) return undefined;
  const tsconfig = findTsconfig(entry, hash, tsconfigs);
  if (tsconfig?.path !== recorded.tsconfig?.path || tsconfig?.hash !== recorded.tsconfig?.hash)
    return undefined;
  let stats: Record<string, string> | undefined;
  for (const [path, inputHash] of Object.entries(recorded.inputs)) {
    let current: Stats;
    try {
      current = statSync(path);
      if (fingerprintMatches(current, recorded.stats[path])) continue;
      if (hash(readFileSync(path)) !== inputHash) return undefined;
    } catch {
      return undefined; // deleted or unreadable: rebuild, and let esbuild say what is wrong
    }
    const fingerprint = fingerprintOf(current);
    if (fingerprint !== undefined) {
      stats ??= { ...recorded.stats };
      stats[path] = fingerprint;
    }
  }
  if (!recorded.externals.every((path) => existsSync(path))) return undefined;
  const specifiers = Object.keys(recorded.hostModules);
  if (specifiers.length > 0) await ensureHostModules(specifiers);
  for (const specifier of specifiers) {
    if (hostModuleSourceHash(specifier) !== recorded.hostModules[specifier]) return undefined;
  }
  return { recorded, refreshed: stats === undefined ? undefined : { ...recorded, stats } };
}
