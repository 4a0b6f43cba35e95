import type { SourcePackRef } from "./bundle-index.js";

/**
 * A compiled entry, ready to import. Always a null-prototype object (see {@link compiledBundle}):
 * promises resolve with it while tool modules run, and one may have added `Object.prototype.then`.
 */
export interface CompiledBundle {
  /** `file:` URL of the cached bundle, named after its key. */
  url: string;
  /** The bundle's cache key (see `computeBundleKey`). */
  key: string;
  /** True when the bundle came from the cache without running esbuild. */
  fromCache: boolean;
  /**
   * Set when the entry's code is a member of a pack built from the sources: then `url` names
   * no file (it is the URL its own bundle would have, which identifies its code), and the
   * bundle is built only if the entry must be imported on its own (see `EsbuildQueue.alone`).
   */
  pack: SourcePackRef | undefined;
}

/** A {@link CompiledBundle} (null-prototype). */
export function compiledBundle(
  url: string,
  key: string,
  fromCache: boolean,
  pack: SourcePackRef | undefined,
): CompiledBundle {
  return { __proto__: null, url, key, fromCache, pack } as CompiledBundle;
}
