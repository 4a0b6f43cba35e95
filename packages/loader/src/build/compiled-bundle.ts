import type { SourcePackRef } from "../compile/bundle-index.js";

/** A compiled entry, ready to import. */
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

/** A {@link CompiledBundle}. */
export function compiledBundle(
  url: string,
  key: string,
  fromCache: boolean,
  pack: SourcePackRef | undefined,
): CompiledBundle {
  return { url, key, fromCache, pack };
}
