import type { EsbuildBatch } from "./esbuild-batch.js";
import { type CompiledBundle, EsbuildQueue } from "./esbuild-queue.js";

export type { CompiledBundle } from "./esbuild-queue.js";

/**
 * Compiles one entry with esbuild into `<cacheDir>/bundles/<key>.mjs`, or returns the cached
 * bundle when the index proves it current (without importing esbuild). Throws
 * `CompileFailure` when the module does not build and `CacheWriteError` when the bundle
 * cannot be written. A load batch uses an {@link EsbuildQueue} instead, which builds its
 * misses together.
 */
export async function compileWithEsbuild(
  entry: string,
  cacheDir: string,
  batch: EsbuildBatch,
): Promise<CompiledBundle> {
  const queue = new EsbuildQueue(cacheDir, batch);
  try {
    return await queue.compile(entry);
  } finally {
    await queue.settle();
  }
}
