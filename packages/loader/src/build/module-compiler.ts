import { join, resolve } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
import { openCacheFolder } from "../compile/cache-folder.js";
import { cacheUnwritableWarning, cacheWarning, compilerFallbackWarning } from "../compile/cache-warning.js";
import { CacheWriteError } from "../compile/cache-write-error.js";
import { EsbuildBatch } from "../compile/esbuild-batch.js";
import { reportingMissingExports } from "../compile/host-packages/missing-exports.js";
import { reportingImportFailures } from "../compile/import-failure.js";
import { prepareWithJiti } from "../compile/jiti-compiler.js";
import { perFileAvailable } from "../compile/per-file/per-file-available.js";
import type { PlanMemo } from "../compile/per-file/per-file-graph.js";
import type * as PerFileLoader from "../compile/per-file/per-file-loader.js";
import { catchingEvaluation, type PreparedModule } from "../compile/prepared-module.js";
import { describeError } from "../diagnostics.js";
import { isWithin } from "../discover/expand-path.js";
import type { CompilerName } from "../options.js";
import { type CompiledMember, EsbuildQueue, PackMissing } from "./esbuild-queue.js";
import { PackPlanner } from "./pack-planner.js";
import { keepCodeCachesIn, writeCodeCaches } from "./pack-script.js";

/** Compiles tool entries for one load batch. */
export interface ModuleCompiler {
  /**
   * Compiles an entry (or finds it in the cache) and returns the function that evaluates it.
   * Throws `CompileFailure` when it does not compile.
   */
  prepare(entry: string): Promise<PreparedModule>;
  /**
   * Announces entries the batch will prepare, in order. The next cache miss then builds every
   * stale announced entry in one esbuild build (one build per request is the cold path's main
   * cost), and consecutive entries are evaluated from packs (see `PackPlanner`).
   */
  plan?(entries: readonly string[]): void;
  /** No more entries will be planned. Required after `plan`: the last group waits for it (or `close`). */
  planEnded?(): void;
  /** Ends the batch: stops esbuild's service when it was started and no other batch uses it. */
  close(): Promise<void>;
  /**
   * Settles once the packs of the misses evaluated file by file are built (after `close`), with
   * the warnings of that work (`W_CACHE_UNWRITABLE`, `W_COMPILER_FALLBACK`); never rejects.
   */
  cached(): Promise<Diagnostic[]>;
}

/**
 * The compiler of a batch. Before anything is read from the cache, the cache folder is
 * created or checked (see `openCacheFolder`): when it is not private (`W_CACHE_UNSAFE`) or
 * cannot be created (`W_CACHE_UNWRITABLE`), the batch compiles with jiti and no cache at all.
 * `esbuild` also falls back to `jiti` for the rest of the batch, with one warning, when
 * esbuild cannot be imported (`W_COMPILER_FALLBACK`, e.g. a platform without its binary) or
 * when the cache cannot be written (`W_CACHE_UNWRITABLE`).
 */
export function createModuleCompiler(
  name: CompilerName,
  cacheDir: string,
  onWarning: (diagnostic: Diagnostic) => void,
  packsDir?: string,
): ModuleCompiler {
  const batch = new EsbuildBatch();
  const packs: PackPlanner = new PackPlanner((entry) => (builder ?? queue).alone(entry));
  // A miss is evaluated file by file where Node can (see `preparePerFile`): the load does not
  // wait for esbuild, whose build of the misses' packs starts once the load is done.
  const perFile = name === "esbuild" && packsDir === undefined && perFileAvailable();
  // A tool host's packs are its host's, read only: what its loads compile stays in its own cache.
  if (packsDir !== undefined) keepCodeCachesIn(join(cacheDir, "code"));
  // With `packsDir` (a tool host), the packs are the host's, read only: a miss compiles with jiti.
  const queue = new EsbuildQueue(packsDir ?? cacheDir, batch, packs, {
    readOnly: packsDir !== undefined,
    buildMisses: !perFile,
  });
  /** The queue that builds misses when `queue` does not: created on the first need. */
  let builder: EsbuildQueue | undefined;
  const building = () => (builder ??= new EsbuildQueue(cacheDir, batch, packs));
  let planning: PlanMemo | undefined;
  let cached: Promise<Diagnostic[]> = Promise.resolve([]);
  let codeCaches: Promise<void> | undefined;
  /** Misses evaluated file by file: their packs are built when the batch ends. */
  const unbuilt: string[] = [];
  /** `entry` evaluated file by file (its pack built after the batch), or `undefined`: bundle it. */
  const fileByFile = async (entry: string): Promise<PreparedModule | undefined> => {
    perFileLoader ??= await import("../compile/per-file/per-file-loader.js");
    planning ??= perFileLoader.planMemo();
    const prepared = await perFileLoader.preparePerFile(entry, planning);
    if (prepared !== undefined) unbuilt.push(entry);
    return prepared;
  };
  let useJiti = name === "jiti";
  /** jiti's transform cache: in the checked cache folder, or none when that is not usable. */
  let jitiCache: string | false = join(cacheDir, "jiti");
  let opened = false;
  const warned = new Set<string>();
  // Modules compile concurrently: several may hit the same fault; warn about it once.
  const warnOnce = (diagnostic: Diagnostic) => {
    if (warned.has(diagnostic.code)) return;
    warned.add(diagnostic.code);
    onWarning(diagnostic);
  };
  // Once per batch, before the first read from the cache.
  const openCache = (entry: string) => {
    if (opened) return;
    opened = true;
    const state = openCacheFolder(cacheDir);
    if (state.usable) return;
    useJiti = true;
    jitiCache = false;
    warnOnce(cacheWarning(state, cacheDir, entry));
  };
  /** jiti, with its cache until a write there fails (a full disk): then without, for the batch's rest. */
  const withJiti = async (entry: string): Promise<PreparedModule> => {
    const cache = jitiCache;
    const prepared = await prepareWithJiti(entry, cache);
    if (cache === false) return prepared;
    return catchingEvaluation(prepared, async (error) => {
      if (!writeFailedIn(error, cache)) throw error;
      jitiCache = false;
      warnOnce(cacheUnwritableWarning(cacheDir, describeError(error), entry, "jiti"));
      return (await prepareWithJiti(entry, false)).evaluate();
    });
  };
  return {
    plan(entries) {
      if (entries.length === 0) return;
      openCache(entries[0] as string);
      if (useJiti) return;
      packs.plan(entries); // first: the queue asks the planner for each entry's group
      queue.plan(entries);
    },
    async prepare(entry) {
      openCache(entry);
      if (!useJiti) {
        try {
          const reporting = (prepared: PreparedModule) =>
            reportingMissingExports(reportingImportFailures(prepared, entry), entry, onWarning);
          // Evaluated file by file before in this process: so again, so that an unchanged
          // module is not evaluated a second time from its pack (one evaluation per process).
          const servedBefore = perFile && perFileLoader?.servedPerFile(entry) === true;
          const again = servedBefore ? await fileByFile(entry) : undefined;
          if (again !== undefined) return reporting(again);
          let bundle: CompiledMember;
          try {
            bundle = await queue.compile(entry);
          } catch (error) {
            if (!perFile || !(error instanceof PackMissing)) throw error;
            // A miss: file by file, unless that was just tried; else built now.
            const prepared = servedBefore ? undefined : await fileByFile(entry);
            if (prepared !== undefined) return reporting(prepared);
            bundle = await building().compile(entry);
          }
          let evaluator = packs.evaluator(entry, bundle);
          // Another process may replace the host's pack after the check: jiti then, as above.
          if (packsDir !== undefined) {
            const jiti = () => withJiti(entry).then((other) => other.evaluate());
            evaluator = catchingEvaluation(evaluator, (error) => {
              if (error instanceof PackMissing) return jiti();
              throw error;
            });
          }
          return reporting(evaluator);
        } catch (error) {
          if (error instanceof PackMissing) {
            // Changed since the host built it (or refused there): jiti reads it as it is now.
          } else if (error instanceof CacheWriteError) {
            // No cache at all: jiti's own would be on the same full or read-only disk.
            useJiti = true;
            jitiCache = false;
            warnOnce(cacheUnwritableWarning(error.cacheDir, error.reason, entry));
          } else if (batch.failedToImport) {
            useJiti = true;
            warnOnce(compilerFallbackWarning(error, entry));
          } else {
            throw error;
          }
        }
      }
      return reportingMissingExports(await withJiti(entry), entry, onWarning);
    },
    planEnded() {
      packs.end();
    },
    async close() {
      packs.end();
      await queue.settle();
      if (unbuilt.length === 0) {
        await builder?.settle();
        await batch.close();
        return;
      }
      // After the load: the packs of the misses, for the next load. A build that fails is not
      // this load's fault (its modules loaded); the next load meets it as a miss again. Started
      // in the next turn of the event loop: the load returns first.
      const after = building();
      cached = (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const outcomes = await Promise.allSettled(unbuilt.map((entry) => after.compile(entry)));
        const warnings = afterLoadWarnings(outcomes, unbuilt, batch);
        await after.settle().catch(() => undefined);
        await batch.close().catch(() => undefined);
        return warnings;
      })().catch(() => []);
    },
    cached() {
      // Asked for as the load returns: after it, the packs' code caches, which keep what the
      // load's factories compiled (see `writeCodeCaches`).
      codeCaches ??= new Promise<void>((resolve) => setImmediate(() => resolve(writeCodeCaches())));
      return Promise.all([cached, codeCaches]).then(([warnings]) => warnings);
    },
  };
}

/**
 * What keeps the packs of a load's file-by-file modules from the cache, once each: the cache
 * cannot be written, or esbuild cannot be loaded. A module that does not build is no warning:
 * it loaded, and its next load reports what the bundle says if it does not load file by file.
 */
function afterLoadWarnings(
  outcomes: ReadonlyArray<PromiseSettledResult<unknown>>,
  entries: readonly string[],
  batch: EsbuildBatch,
): Diagnostic[] {
  const warnings = new Map<string, Diagnostic>(); // one per code
  for (const [at, outcome] of outcomes.entries()) {
    if (outcome.status === "fulfilled") continue;
    const entry = entries[at] as string;
    const error = outcome.reason as unknown;
    const warning =
      error instanceof CacheWriteError
        ? cacheUnwritableWarning(error.cacheDir, error.reason, entry, "after-load")
        : batch.failedToImport
          ? compilerFallbackWarning(error, entry, true)
          : undefined;
    if (warning !== undefined && !warnings.has(warning.code)) warnings.set(warning.code, warning);
  }
  return [...warnings.values()];
}

/**
 * The file-by-file loader, imported on the first miss where Node can load that way: a warm
 * load, Node 20, Bun and a tool host never load it.
 */
let perFileLoader: typeof PerFileLoader | undefined;

/** The codes of a write the disk refused: full, over quota, a file too large, read only. */
const WRITE_REFUSED = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EROFS"]);

/**
 * Whether `error` may be jiti failing to write its cache in `folder`: a write the disk refused,
 * about a path there or about none (a failed `write` names no path). A module whose own code
 * failed that way is evaluated once more, without the cache, and fails as before.
 */
function writeFailedIn(error: unknown, folder: string): boolean {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== "string" || !WRITE_REFUSED.has(code)) return false;
  return path === undefined || (typeof path === "string" && isWithin(resolve(path), resolve(folder)));
}
