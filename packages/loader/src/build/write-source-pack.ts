import { writeFileAtomicSync } from "../compile/atomic-write.js";
import {
  type BundleIndexEntry,
  indexPath,
  packPath,
  readBundleIndex,
  type SourcePackRef,
  sourcePackKeysPath,
} from "../compile/bundle-index.js";
import { CacheWriteError } from "../compile/cache-write-error.js";
import type { TsconfigSnapshot } from "../compile/find-tsconfig.js";
import { bundleIndexEntry, mapPath, removeReplacedBundle } from "../compile/write-bundle.js";
import { type SourcePackOutcome, sourcePackId } from "./source-packs.js";

/** What {@link writeSourcePack} wrote. */
export interface WrittenSourcePack {
  /** The pack's id (its file is `pack-<id>.mjs`). */
  id: string;
  /** Per member entry: its key and where its code is. */
  members: Map<string, { key: string; pack: SourcePackRef }>;
  /** Packs the members' indexes named before, other than this one: no index names them now. */
  replaced: Set<string>;
}

/**
 * Writes a pack built from the sources into the cache: its source map
 * (`<cacheDir>/maps/pack-<id>.mjs.map`), the pack (`<cacheDir>/bundles/pack-<id>.mjs`, linked to
 * the map), then each member's index (`<cacheDir>/index/<hash of the entry>.json`), which
 * records the member's own inputs, their stat fingerprints, host modules and external files
 * exactly as a bundle's index does, plus the pack that holds its code (so a warm start checks
 * every input of every member, and finds the pack from any member). Each write is atomic; a
 * member's previous bundle is removed when its key changed. Throws {@link CacheWriteError}.
 */
export function writeSourcePack(
  cacheDir: string,
  entries: readonly string[],
  outcome: SourcePackOutcome & { built: { code: string; map: string } },
  context: string,
  tsconfigOf: (entry: string) => TsconfigSnapshot | null,
): WrittenSourcePack {
  const indexes: Array<BundleIndexEntry | undefined> = entries.map((entry, at) => {
    const member = outcome.members[at];
    return member === undefined ? undefined : bundleIndexEntry(entry, member, context, tsconfigOf(entry));
  });
  const keys = indexes.map((index) => index?.key);
  const id = sourcePackId(keys);
  const members = new Map<string, { key: string; pack: SourcePackRef }>();
  const replaced = new Set<string>();
  try {
    writeFileAtomicSync(mapPath(cacheDir, `pack-${id}`), outcome.built.map);
    writeFileAtomicSync(
      sourcePackKeysPath(cacheDir, id),
      JSON.stringify({ keys: keys.map((key) => key ?? "") }),
    );
    writeFileAtomicSync(
      packPath(cacheDir, id),
      `${outcome.built.code}//# sourceMappingURL=../maps/pack-${id}.mjs.map\n`,
    );
    for (const [at, index] of indexes.entries()) {
      if (index === undefined) continue;
      const pack: SourcePackRef = { id, index: at };
      const previous = readBundleIndex(cacheDir, index.entry);
      writeFileAtomicSync(indexPath(cacheDir, index.entry), JSON.stringify({ ...index, pack }));
      removeReplacedBundle(cacheDir, previous?.pack === undefined ? previous : undefined, index.key);
      if (previous?.pack !== undefined && previous.pack.id !== id) replaced.add(previous.pack.id);
      members.set(index.entry, { key: index.key, pack });
    }
  } catch (error) {
    throw new CacheWriteError(cacheDir, { cause: error });
  }
  replaced.delete(id);
  return { id, members, replaced };
}
