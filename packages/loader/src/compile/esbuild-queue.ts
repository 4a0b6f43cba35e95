import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { PromisePrototypeThen, SafeSetImmediate, safePromise } from "../guards/primordials.js";
import { settleAll } from "../guards/settle-all.js";
import { type BuildOutcome, buildEntries } from "./build-entries.js";
import { bundlePath, writeBundleIndex } from "./bundle-index.js";
import { CompileFailure } from "./compile-failure.js";
import { findCurrentBundle } from "./current-bundle.js";
import type { EsbuildBatch } from "./esbuild-batch.js";
import { esbuildContextHash } from "./esbuild-context.js";
import { findTsconfig, type TsconfigMemo } from "./find-tsconfig.js";
import { hash } from "./hash.js";
import { mapsDir, writeBundle } from "./write-bundle.js";

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
}

function compiledBundle(url: string, key: string, fromCache: boolean): CompiledBundle {
  return { __proto__: null, url, key, fromCache } as CompiledBundle;
}

interface Waiting {
  entry: string;
  resolve: (bundle: CompiledBundle) => void;
  reject: (error: unknown) => void;
}

/**
 * The esbuild side of one load batch. Each entry's cache check is synchronous file access
 * (see `findCurrentBundle`); the misses are gathered and built together: every miss asked for
 * in the same turn of the event loop, plus, once a build is needed anyway, every entry of the
 * {@link EsbuildQueue.plan | plan} not asked for yet whose cache is stale. Results are kept
 * for the batch, so an entry built ahead is handed out when it is asked for.
 */
export class EsbuildQueue {
  readonly #cacheDir: string;
  readonly #batch: Pick<EsbuildBatch, "esbuild">;
  readonly #context = esbuildContextHash();
  readonly #tsconfigs: TsconfigMemo = new Map();
  readonly #results = new Map<string, Promise<CompiledBundle>>();
  readonly #background = new Set<Promise<unknown>>();
  readonly #planned: string[] = [];
  /** Planned entries before this index have been checked (or asked for). */
  #plannedChecked = 0;
  #waiting: Waiting[] = [];
  #flushScheduled = false;

  constructor(cacheDir: string, batch: Pick<EsbuildBatch, "esbuild">) {
    this.#cacheDir = cacheDir;
    this.#batch = batch;
  }

  /**
   * Adds entries this batch will ask for (call again as more are discovered); stale ones are
   * built with the next miss.
   */
  plan(entries: readonly string[]): void {
    this.#planned.push(...entries);
  }

  /**
   * The entry's bundle: from the cache when the index proves it current, else built (with
   * the other misses). Rejects with `CompileFailure` or `CacheWriteError`.
   */
  compile(entry: string): Promise<CompiledBundle> {
    let result = this.#results.get(entry);
    if (result === undefined) {
      result = this.#check(entry);
      PromisePrototypeThen(result, noop, noop); // an entry built ahead may never be asked for
      this.#results.set(entry, result);
    }
    return result;
  }

  /** Waits for builds and index refreshes still running, so none outlives the batch. */
  async settle(): Promise<void> {
    while (this.#background.size > 0) await settleAll([...this.#background]);
  }

  async #check(entry: string): Promise<CompiledBundle> {
    const current = await findCurrentBundle(this.#cacheDir, entry, this.#context, this.#tsconfigs);
    if (current === undefined) return this.#enqueue(entry);
    if (current.refreshed !== undefined) {
      // Fresh fingerprints spare the next check its hashing; losing this write costs nothing.
      const refresh = writeBundleIndex(this.#cacheDir, current.refreshed);
      PromisePrototypeThen(refresh, noop, noop);
      this.#track(refresh);
    }
    const { key } = current.recorded;
    return compiledBundle(pathToFileURL(bundlePath(this.#cacheDir, key)).href, key, true);
  }

  #enqueue(entry: string): Promise<CompiledBundle> {
    return safePromise((resolve, reject) => {
      this.#waiting.push({ entry, resolve, reject });
      if (this.#flushScheduled) return;
      this.#flushScheduled = true;
      this.#track(
        safePromise<void>((done) => {
          SafeSetImmediate(() =>
            PromisePrototypeThen(
              this.#flush(),
              () => done(),
              () => done(),
            ),
          );
        }),
      );
    });
  }

  async #flush(): Promise<void> {
    // Check the planned entries nobody asked for yet; their misses join this build (each
    // check queues itself after a microtask, so give them one turn of the event loop).
    let ahead = false;
    for (; this.#plannedChecked < this.#planned.length; this.#plannedChecked += 1) {
      const entry = this.#planned[this.#plannedChecked] as string;
      if (this.#results.has(entry)) continue;
      this.compile(entry);
      ahead = true;
    }
    if (ahead) await safePromise((done) => SafeSetImmediate(done));
    this.#flushScheduled = false;
    const group = this.#waiting.splice(0);
    if (group.length === 0) return;
    let outcomes: Map<string, BuildOutcome>;
    try {
      const esbuild = await this.#batch.esbuild();
      outcomes = await buildEntries(
        esbuild,
        group.map((waiting) => waiting.entry),
        mapsDir(this.#cacheDir),
      );
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    for (const waiting of group) this.#write(waiting, outcomes.get(waiting.entry));
  }

  #write({ entry, resolve, reject }: Waiting, outcome: BuildOutcome | undefined): void {
    if (outcome === undefined || outcome instanceof CompileFailure) {
      reject(outcome ?? new CompileFailure(`esbuild returned no output for ${entry}`, {}));
      return;
    }
    try {
      const tsconfig = findTsconfig(entry, hash, this.#tsconfigs);
      const path = writeBundle(this.#cacheDir, entry, outcome, this.#context, tsconfig);
      resolve(compiledBundle(pathToFileURL(path).href, basename(path, ".mjs"), false));
    } catch (error) {
      reject(error);
    }
  }

  #track(work: Promise<unknown>): void {
    this.#background.add(work);
    const untrack = () => this.#background.delete(work);
    PromisePrototypeThen(work, untrack, untrack);
  }
}

function noop(): void {}
