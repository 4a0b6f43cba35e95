import { acquireEsbuild, releaseEsbuild } from "./esbuild-service.js";

type Esbuild = typeof import("esbuild");

/**
 * One load batch's use of esbuild: imported on the first cache miss only, released (and the
 * service stopped when no other batch uses it) by {@link EsbuildBatch.close}.
 */
export class EsbuildBatch {
  #esbuild: Promise<Esbuild> | undefined;
  /** True once importing esbuild failed (the caller then falls back to jiti). */
  failedToImport = false;

  /** esbuild, imported and acquired on first call. Rejects when esbuild cannot be imported. */
  esbuild(): Promise<Esbuild> {
    this.#esbuild ??= acquireEsbuild().catch((error: unknown) => {
      this.failedToImport = true;
      throw error;
    });
    return this.#esbuild;
  }

  /** Releases esbuild if this batch used it. */
  async close(): Promise<void> {
    const pending = this.#esbuild;
    this.#esbuild = undefined;
    if (pending === undefined) return;
    try {
      await pending;
    } catch {
      return; // never acquired
    }
    await releaseEsbuild();
  }
}
