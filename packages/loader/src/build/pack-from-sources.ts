import { join } from "node:path";
import type { SourcePackRef } from "../compile/bundle-index.js";
import type { TsconfigSnapshot } from "../compile/find-tsconfig.js";
import { buildSourcePacks, type SourcePackOutcome } from "./source-packs.js";
import { writeSourcePack } from "./write-source-pack.js";

type Esbuild = typeof import("esbuild");

/** What became of one group of {@link packFromSources}. */
export type PackedGroup =
  /** Written: each member's key and place (an entry missing from it is built on its own). */
  | {
      status: "packed";
      id: string;
      members: Map<string, { key: string; pack: SourcePackRef }>;
      /** Packs the members' indexes named before, replaced by this one. */
      replaced: Set<string>;
    }
  /** No pack (it failed to build, or fewer than two entries fit): each entry on its own. */
  | { status: "alone" }
  /** The pack was built but the cache could not be written (a `CacheWriteError`). */
  | { status: "unwritable"; error: unknown };

/**
 * Builds the packs of `groups` (entry paths in order) straight from the sources in one
 * esbuild build (see `buildSourcePacks`), and writes each pack with its members' indexes into
 * the cache (see `writeSourcePack`); removes packs not written for 30 days when one was
 * written. esbuild failing as a whole (not a module: those are outcomes) makes every group
 * `alone`.
 */
export async function packFromSources(
  esbuild: Esbuild,
  cacheDir: string,
  groups: ReadonlyArray<readonly string[]>,
  context: string,
  tsconfigOf: (entry: string) => TsconfigSnapshot | null,
): Promise<PackedGroup[]> {
  let outcomes: Array<SourcePackOutcome | undefined>;
  try {
    outcomes = await buildSourcePacks(esbuild, groups, join(cacheDir, "bundles"));
  } catch {
    outcomes = groups.map(() => undefined);
  }
  return groups.map((entries, at): PackedGroup => {
    const outcome = outcomes[at];
    const built = outcome?.built;
    if (outcome === undefined || built === undefined) return { status: "alone" };
    try {
      const written = writeSourcePack(cacheDir, entries, { ...outcome, built }, context, tsconfigOf);
      return { status: "packed", ...written };
    } catch (error) {
      return { status: "unwritable", error };
    }
  });
}
