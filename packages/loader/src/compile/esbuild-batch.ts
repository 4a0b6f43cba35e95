export type Esbuild = typeof import("esbuild");

let esbuildModule: Promise<Esbuild> | undefined;
let users = 0;

/**
 * One load batch's use of esbuild, imported on the first cache miss (a warm start never does).
 * The last batch to close stops esbuild's service: the host keeps no child process between loads.
 */
export class EsbuildBatch {
  #esbuild: Promise<Esbuild> | undefined;
  /** True once importing esbuild failed (the caller then falls back to jiti). */
  failedToImport = false;

  /** esbuild, imported and acquired on first call. Rejects when esbuild cannot be imported. */
  esbuild(): Promise<Esbuild> {
    this.#esbuild ??= this.#acquire();
    return this.#esbuild;
  }

  async #acquire(): Promise<Esbuild> {
    esbuildModule ??= import("esbuild");
    try {
      const esbuild = await esbuildModule;
      users += 1;
      return esbuild;
    } catch (error) {
      esbuildModule = undefined;
      this.failedToImport = true;
      throw error;
    }
  }

  /** Releases esbuild if this batch used it; stops its service when no other batch uses it. */
  async close(): Promise<void> {
    const pending = this.#esbuild;
    this.#esbuild = undefined;
    if (pending === undefined) return;
    try {
      await pending;
    } catch {
      return; // never acquired
    }
    users = Math.max(0, users - 1);
    if (users > 0 || esbuildModule === undefined) return;
    const esbuild = await esbuildModule;
    if (users === 0) await esbuild.stop();
  }
}
