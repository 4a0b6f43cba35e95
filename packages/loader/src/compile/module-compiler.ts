import type { Diagnostic } from "@tooldock/sdk";
import { EsbuildBatch } from "./esbuild-batch.js";
import { compileWithEsbuild } from "./esbuild-compiler.js";
import { prepareWithJiti } from "./jiti-compiler.js";

/** Which compiler turns tool sources into modules. */
export type CompilerName = "esbuild" | "jiti";

/** Compiles tool entries for one load batch. */
export interface ModuleCompiler {
  /**
   * Compiles an entry (or finds it in the cache) and returns the function that evaluates it.
   * Throws `CompileFailure` when it does not compile.
   */
  prepare(entry: string): Promise<() => Promise<unknown>>;
  /** Ends the batch: stops esbuild's service when it was started and no other batch uses it. */
  close(): Promise<void>;
}

/**
 * The compiler of a batch. `esbuild` falls back to `jiti` (with one `W_COMPILER_FALLBACK`
 * warning) when esbuild cannot be imported, e.g. a platform without its binary.
 */
export function createModuleCompiler(
  name: CompilerName,
  cacheDir: string,
  onWarning: (diagnostic: Diagnostic) => void,
): ModuleCompiler {
  const batch = new EsbuildBatch();
  let useJiti = name === "jiti";
  return {
    async prepare(entry) {
      if (!useJiti) {
        try {
          const bundle = await compileWithEsbuild(entry, cacheDir, batch);
          return () => import(/* @vite-ignore */ bundle.url);
        } catch (error) {
          if (!batch.failedToImport) throw error;
          useJiti = true;
          onWarning({
            code: "W_COMPILER_FALLBACK",
            severity: "warning",
            message: `esbuild could not be loaded (${error instanceof Error ? error.message : String(error)}); compiling with jiti instead.`,
            path: entry,
            hint: 'Reinstall esbuild for this platform, or pass compiler: "jiti" to silence this warning.',
          });
        }
      }
      return prepareWithJiti(entry, cacheDir);
    },
    close: () => batch.close(),
  };
}
