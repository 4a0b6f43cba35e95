import type { Diagnostic } from "@tooldock/sdk";
import { CACHE_DIR_ENV } from "./cache-dir.js";
import { CacheWriteError } from "./cache-write-error.js";
import { EsbuildBatch } from "./esbuild-batch.js";
import { EsbuildQueue } from "./esbuild-queue.js";
import { prepareWithJiti } from "./jiti-compiler.js";
import { PackPlanner } from "./pack-planner.js";

/** Evaluates one compiled entry and resolves to its module namespace (or what stands for it). */
export type Evaluate = () => Promise<unknown>;

/** Which compiler turns tool sources into modules. */
export type CompilerName = "esbuild" | "jiti";

/** Compiles tool entries for one load batch. */
export interface ModuleCompiler {
  /**
   * Compiles an entry (or finds it in the cache) and returns the function that evaluates it.
   * Throws `CompileFailure` when it does not compile.
   */
  prepare(entry: string): Promise<Evaluate>;
  /**
   * Announces entries the batch will prepare, in order (call again as discovery finds more).
   * Optional; with it, the next cache miss builds every stale announced entry in the same
   * esbuild build instead of only those asked for so far (one build per request is the cold
   * path's main cost), and consecutive announced entries are evaluated from packs (one file
   * per few dozen tools, see `PackPlanner`) instead of one import per bundle.
   */
  plan?(entries: readonly string[]): void;
  /** Ends the batch: stops esbuild's service when it was started and no other batch uses it. */
  close(): Promise<void>;
}

/**
 * The compiler of a batch. `esbuild` falls back to `jiti` for the rest of the batch, with one
 * warning, when esbuild cannot be imported (`W_COMPILER_FALLBACK`, e.g. a platform without
 * its binary) or when the cache cannot be written (`W_CACHE_UNWRITABLE`).
 */
export function createModuleCompiler(
  name: CompilerName,
  cacheDir: string,
  onWarning: (diagnostic: Diagnostic) => void,
): ModuleCompiler {
  const batch = new EsbuildBatch();
  const queue = new EsbuildQueue(cacheDir, batch);
  const packs = new PackPlanner(cacheDir, (entry) => queue.compile(entry));
  let useJiti = name === "jiti";
  const warned = new Set<string>();
  // Modules compile concurrently: several may hit the same fault; warn about it once.
  const warnOnce = (diagnostic: Diagnostic) => {
    if (warned.has(diagnostic.code)) return;
    warned.add(diagnostic.code);
    onWarning(diagnostic);
  };
  return {
    plan(entries) {
      if (useJiti) return;
      queue.plan(entries);
      packs.plan(entries);
    },
    async prepare(entry) {
      if (!useJiti) {
        try {
          const bundle = await queue.compile(entry);
          return await packs.evaluator(entry, bundle);
        } catch (error) {
          if (error instanceof CacheWriteError) {
            useJiti = true;
            warnOnce({
              code: "W_CACHE_UNWRITABLE",
              severity: "warning",
              message: `esbuild ${error.message}; compiling with jiti instead, without a cache.`,
              path: entry,
              hint: `Make ${error.cacheDir} writable, or point cacheDir / $${CACHE_DIR_ENV} at a writable folder.`,
            });
          } else if (batch.failedToImport) {
            useJiti = true;
            warnOnce({
              code: "W_COMPILER_FALLBACK",
              severity: "warning",
              message: `esbuild could not be loaded (${error instanceof Error ? error.message : String(error)}); compiling with jiti instead.`,
              path: entry,
              hint: 'Reinstall esbuild for this platform, or pass compiler: "jiti" to silence this warning.',
            });
          } else {
            throw error;
          }
        }
      }
      return prepareWithJiti(entry, cacheDir);
    },
    async close() {
      await queue.settle();
      await batch.close();
    },
  };
}
