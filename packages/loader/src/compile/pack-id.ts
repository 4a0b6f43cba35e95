import { bundlePath } from "./bundle-index.js";
import { hash } from "./hash.js";

/**
 * Bump when the pack layout changes, so packs written before are not reused.
 * 2: import bindings on the function's first line, checked; the export renamed.
 */
export const PACK_FORMAT_VERSION = 2;

/**
 * The name of a pack's one export: the array of member functions. Unusual on purpose: a
 * member's free variable of that name would otherwise read the pack's array.
 */
export const PACK_EXPORT = "__tooldockPackModules";

/** One cached bundle a pack may hold. */
export interface PackMember {
  entry: string;
  /** The key of the entry's current bundle (see `computeBundleKey`). */
  key: string;
}

/** The pack of these bundles, in this order: a hash of their keys. */
export function packId(members: readonly PackMember[]): string {
  return hash([`pack ${PACK_FORMAT_VERSION}`, ...members.map((member) => member.key)].join("\n")).slice(
    0,
    40,
  );
}

/** Where a pack lives: beside the bundles, so a dynamic `import()` in one resolves the same. */
export function packPath(cacheDir: string, id: string): string {
  return bundlePath(cacheDir, `pack-${id}`);
}
