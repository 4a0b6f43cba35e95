import type { Diagnostic } from "@tooldock/sdk";
import type { PreparedModule } from "../compile/prepared-module.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { ModuleCompiler } from "./module-compiler.js";

/** A module's evaluable unit: `prepared` settles with what evaluates it, or rejects with why it failed. */
export interface BuildUnit {
  module: DiscoveredModule;
  prepared: Promise<PreparedModule>;
  /** The same, when it had settled by the time the unit was taken: evaluated without waiting. */
  ready?: PreparedModule | undefined;
}

/** How many modules are compiled ahead of the one taken before it has compiled. */
export const COMPILE_AHEAD = 3;

/**
 * Stage 2, build: module entries → evaluable units. Modules are announced with
 * {@link BuildStage.found} as discovered (so one cache miss builds every stale announced entry,
 * and consecutive entries share packs) and taken in order with {@link BuildStage.unit}. Taking a
 * module starts the compilation of the next {@link COMPILE_AHEAD}, and once it has compiled, of
 * every module found so far: compilation (esbuild in its own process, oxc on the thread pool)
 * overlaps the sequential import-and-factory step, and the module taken is not queued behind all
 * the others (a flat folder of 500 is found before the first is taken). No tool code runs
 * concurrently.
 */
export class BuildStage {
  readonly #compiler: ModuleCompiler;
  readonly #modules: readonly DiscoveredModule[];
  readonly #prepared = new Map<number, Promise<PreparedModule>>();
  /** Compilations that have succeeded, by index, until taken. */
  readonly #ready = new Map<number, PreparedModule>();
  #next = 0;
  /** How many modules have been scheduled (all of the first ones, in order). */
  #scheduled = 0;
  #closed = false;

  /** `found` is the discover stage's list of modules so far (it grows as they are found). */
  constructor(compiler: ModuleCompiler, found: readonly DiscoveredModule[]) {
    this.#compiler = compiler;
    this.#modules = found;
  }

  /** Announces a module the load will take, in discovery order. */
  found(module: DiscoveredModule): void {
    this.#compiler.plan?.([module.resolvedPath]);
  }

  /** Discovery ended: no module follows the ones announced (the last pack is complete). */
  discoveryEnded(): void {
    this.#compiler.planEnded?.();
  }

  /** The unit of the next module (in discovery order); schedules the compilation of those found since. */
  unit(module: DiscoveredModule): BuildUnit {
    const index = this.#next;
    this.#next += 1;
    this.#scheduleUpTo(index + COMPILE_AHEAD + 1);
    const prepared = this.#prepared.get(index) as Promise<PreparedModule>;
    // A window of 3 left oxc's threads idle between a cold load's file-by-file graphs
    // (Node 24, N = 100: 9 % slower): the rest follow once this one has compiled, in the next
    // turn of the event loop, so that its evaluation starts first.
    const rest = () => setImmediate(() => this.#closed || this.#scheduleUpTo(this.#modules.length));
    prepared.then(rest, rest);
    const ready = this.#ready.get(index);
    this.#prepared.delete(index);
    this.#ready.delete(index);
    return { module, prepared, ready };
  }

  /** Waits for compilations still running (none outlives the batch) and stops esbuild's service. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#prepared.values()]);
    this.#prepared.clear();
    this.#ready.clear();
    await this.#compiler.close();
  }

  /** Settles once the cache holds what the stage left for after it (see `ModuleCompiler.cached`). */
  cached(): Promise<Diagnostic[]> {
    return this.#compiler.cached();
  }

  /** Schedules the modules found so far, in order, up to (not including) `end`. */
  #scheduleUpTo(end: number): void {
    for (; this.#scheduled < Math.min(end, this.#modules.length); this.#scheduled += 1)
      this.#schedule(this.#scheduled);
  }

  #schedule(index: number): void {
    const module = this.#modules[index] as DiscoveredModule;
    const prepared = this.#compiler.prepare(module.resolvedPath);
    // Observed later by unit(); avoids an unhandled rejection meanwhile.
    prepared.then(
      (value) => {
        if (this.#prepared.get(index) === prepared) this.#ready.set(index, value);
      },
      () => {},
    );
    this.#prepared.set(index, prepared);
  }
}
