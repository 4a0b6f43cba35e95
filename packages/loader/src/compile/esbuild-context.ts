import { BUILD_OPTIONS } from "./build-options.js";
import { CACHE_FORMAT_VERSION } from "./cache-index.js";
import { esbuildVersion } from "./compiler-version.js";
import { hash } from "./hash.js";

let contextHash: string | undefined;

/** Hash of everything besides the sources that shapes a pack (part of every key). */
export function esbuildContextHash(): string {
  contextHash ??= hash(
    JSON.stringify({ format: CACHE_FORMAT_VERSION, esbuild: esbuildVersion(), options: BUILD_OPTIONS }),
  );
  return contextHash;
}
