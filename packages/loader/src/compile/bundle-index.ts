import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import type { TsconfigSnapshot } from "./find-tsconfig.js";
import { hash } from "./hash.js";

/** The last compile of one entry: enough to prove the cached bundle is still current. */
export interface BundleIndexEntry {
  entry: string;
  key: string;
  /** Hash of the compiler version, the loader's cache format and the build options. */
  context: string;
  tsconfig: TsconfigSnapshot | null;
  /** Absolute path → content hash of every bundled source file. */
  inputs: Record<string, string>;
  /**
   * Absolute path → stat fingerprint (see `fingerprintOf`) taken before the content was
   * hashed. A matching stat proves the file unchanged without reading it; an input without
   * one (changed too recently when recorded) is always checked by content. Not in the key.
   */
  stats: Record<string, string>;
  /** Host specifier → hash of the virtual module source served for it. */
  hostModules: Record<string, string>;
  /** Absolute paths of external packages the bundle imports. */
  externals: string[];
  /**
   * Set when the entry's code lives in a pack built from the sources (see `buildSourcePacks`)
   * instead of its own bundle: the pack and the entry's place in its `members` (the keys of
   * all members are in `<cacheDir>/packs/source-<id>.json`, read only on a reload). Not in
   * the key: the key says what the code was built from, not where it is.
   */
  pack?: SourcePackRef;
}

/** Where a pack member's code is: see {@link BundleIndexEntry.pack}. */
export interface SourcePackRef {
  id: string;
  index: number;
}

/** Where the member keys of a pack built from the sources are recorded. */
export function sourcePackKeysPath(cacheDir: string, id: string): string {
  return join(cacheDir, "packs", `source-${id}.json`);
}

/** Where the bundle of a key lives (its source map is beside it, `<bundle>.map`). */
export function bundlePath(cacheDir: string, key: string): string {
  return join(cacheDir, "bundles", `${key}.mjs`);
}

/**
 * Where a pack lives (`<cacheDir>/bundles/pack-<id>.mjs`): beside the bundles, so a dynamic
 * `import()` in one resolves the same.
 */
export function packPath(cacheDir: string, id: string): string {
  return bundlePath(cacheDir, `pack-${id}`);
}

/** Where the index of an entry lives. */
export function indexPath(cacheDir: string, entry: string): string {
  return join(cacheDir, "index", `${hash(entry).slice(0, 32)}.json`);
}

/** The cache key: a hash over everything that can change the bundle (not the stats). */
export function computeBundleKey(entry: Omit<BundleIndexEntry, "key" | "stats" | "pack">): string {
  const inputs = Object.keys(entry.inputs)
    .sort()
    .map((path) => `${path}\0${entry.inputs[path]}`);
  const hostModules = Object.keys(entry.hostModules)
    .sort()
    .map((specifier) => `${specifier}\0${entry.hostModules[specifier]}`);
  return hash(
    [entry.context, entry.entry, JSON.stringify(entry.tsconfig), ...inputs, "\0hosts", ...hostModules].join(
      "\n",
    ),
  ).slice(0, 40);
}

/** Records the last compile of an entry (written atomically; a lost race only costs a rebuild). */
export async function writeBundleIndex(cacheDir: string, entry: BundleIndexEntry): Promise<void> {
  await writeFileAtomic(indexPath(cacheDir, entry.entry), JSON.stringify(entry));
}

/**
 * The last recorded compile of an entry, if any (one synchronous read). Not checked for its
 * owner: an index only names a bundle, and that bundle is imported only when it is the
 * loader's own file (see `findCurrentBundle`).
 */
export function readBundleIndex(cacheDir: string, entry: string): BundleIndexEntry | undefined {
  try {
    const recorded = JSON.parse(readFileSync(indexPath(cacheDir, entry), "utf8")) as BundleIndexEntry;
    return recorded.entry === entry && typeof recorded.stats === "object" ? recorded : undefined;
  } catch {
    return undefined;
  }
}
