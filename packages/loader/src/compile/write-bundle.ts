import { rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { writeFileAtomicSync } from "./atomic-write.js";
import type { BuiltEntry } from "./build-entries.js";
import {
  type BundleIndexEntry,
  bundlePath,
  computeBundleKey,
  indexPath,
  readBundleIndex,
} from "./bundle-index.js";
import { CacheWriteError } from "./cache-write-error.js";
import type { TsconfigSnapshot } from "./find-tsconfig.js";
import { hostModuleSourceHash } from "./host-modules.js";
import { readInput } from "./read-input.js";

/** Where the source map of a key lives (built with `outdir` there, so its paths resolve). */
export function mapsDir(cacheDir: string): string {
  return join(cacheDir, "maps");
}

/** Where the source map of a key lives (`<cacheDir>/maps/<key>.mjs.map`). */
export function mapPath(cacheDir: string, key: string): string {
  return join(mapsDir(cacheDir), `${key}.mjs.map`);
}

/**
 * Writes a built entry into the cache: its source map (`<cacheDir>/maps/<key>.mjs.map`), then
 * the bundle (`<cacheDir>/bundles/<key>.mjs`, linked to the map by a relative
 * `sourceMappingURL` comment), then the index that makes both current, each atomically and
 * synchronously (a batch writes many small files).
 * The entry's previous bundle is removed. Returns the bundle's path; throws
 * {@link CacheWriteError} when the cache cannot be written.
 */
export function writeBundle(
  cacheDir: string,
  entry: string,
  built: BuiltEntry,
  context: string,
  tsconfig: TsconfigSnapshot | null,
  options: { index: boolean },
): string {
  const index = bundleIndexEntry(entry, built, context, tsconfig);
  const { key } = index;
  const path = bundlePath(cacheDir, key);
  // Only an index written here replaces the previous bundle: without one, it is not read.
  const previous = options.index ? readBundleIndex(cacheDir, entry) : undefined;
  try {
    writeFileAtomicSync(mapPath(cacheDir, key), built.map);
    const mapUrl = relative(dirname(path), mapPath(cacheDir, key)).split("\\").join("/");
    writeFileAtomicSync(path, `${built.code}//# sourceMappingURL=${mapUrl}\n`);
    // Without the index (a pack member imported on its own): the index still names the pack.
    if (options.index) writeFileAtomicSync(indexPath(cacheDir, entry), JSON.stringify(index));
  } catch (error) {
    throw new CacheWriteError(cacheDir, { cause: error });
  }
  removeReplacedBundle(cacheDir, previous, key);
  return path;
}

/**
 * The index of a built entry: the hash of every input (as the plugin read it), its host
 * modules and external files, and the key over them (see `computeBundleKey`). Reads the
 * inputs the plugin did not read itself (JSON, text assets), once.
 */
export function bundleIndexEntry(
  entry: string,
  built: Pick<BuiltEntry, "graph" | "sources" | "externals">,
  context: string,
  tsconfig: TsconfigSnapshot | null,
): BundleIndexEntry {
  const inputs: Record<string, string> = {};
  const stats: Record<string, string> = {};
  for (const path of built.graph.files) {
    const input = built.sources.get(path) ?? readInput(path).record;
    inputs[path] = input.hash;
    if (input.fingerprint !== undefined) stats[path] = input.fingerprint;
  }
  const hostModules: Record<string, string> = {};
  for (const specifier of built.graph.hostModules) hostModules[specifier] = hostModuleSourceHash(specifier);
  const externals = new Set<string>();
  for (const written of built.graph.externals) {
    const path = built.externals.get(written);
    if (path !== undefined) externals.add(path);
  }
  const unkeyed = { entry, context, tsconfig, inputs, hostModules, externals: [...externals].sort() };
  return { ...unkeyed, key: computeBundleKey(unkeyed), stats };
}

/**
 * Each entry keeps only its current bundle (modules already imported stay in memory): the
 * bundle of the `previous` index is removed when its key is not `key`.
 */
export function removeReplacedBundle(
  cacheDir: string,
  previous: BundleIndexEntry | undefined,
  key: string,
): void {
  if (previous === undefined || previous.key === key) return;
  rmSync(bundlePath(cacheDir, previous.key), { force: true });
  rmSync(mapPath(cacheDir, previous.key), { force: true });
}
