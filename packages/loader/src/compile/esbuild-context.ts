import { BUILD_OPTIONS } from "./build-entries.js";
import { esbuildVersion } from "./compiler-version.js";
import { hash } from "./hash.js";

/**
 * Bump when the bundle layout or the index format changes, so old cache entries are not
 * reused. 2: source maps in `maps/`, stat fingerprints in the index.
 */
const CACHE_FORMAT_VERSION = 2;

let contextHash: string | undefined;

/** Hash of everything besides the sources that shapes a bundle (part of every key). */
export function esbuildContextHash(): string {
  contextHash ??= hash(
    JSON.stringify({ format: CACHE_FORMAT_VERSION, esbuild: esbuildVersion(), options: BUILD_OPTIONS }),
  );
  return contextHash;
}
