import { bundlePath } from "./bundle-index.js";
import { hash } from "./hash.js";

/** Bump when the pack layout changes, so packs written before are not reused. */
export const PACK_FORMAT_VERSION = 1;

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
