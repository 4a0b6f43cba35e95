import type { PreparedModule } from "../compile/prepared-module.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { ModuleCompiler } from "./module-compiler.js";

/** How many modules are compiled ahead of the one being imported. */
export const COMPILE_AHEAD = 3;

/**
 * Compiles modules a few ahead of the one being imported, so compilation (esbuild runs in its
 * own process) overlaps the sequential import-and-factory step. Only compilation runs
 * concurrently; no tool code does. Concurrency is bounded by {@link COMPILE_AHEAD}.
 */
export class CompileAhead {
  readonly #compiler: ModuleCompiler;
  readonly #modules: readonly DiscoveredModule[];
  readonly #prepared = new Map<number, Promise<PreparedModule>>();
  /** Compilations that have succeeded, by index, until taken. */
  readonly #ready = new Map<number, PreparedModule>();

  constructor(compiler: ModuleCompiler, modules: readonly DiscoveredModule[]) {
    this.#compiler = compiler;
    this.#modules = modules;
  }

  /**
   * The compiled module at `index` (rejects with the compile error), and the module itself
   * when it compiled already (`ready`: no promise to wait for); schedules the next ones.
   */
  take(index: number): { prepared: Promise<PreparedModule>; ready: PreparedModule | undefined } {
    for (let ahead = index; ahead <= index + COMPILE_AHEAD && ahead < this.#modules.length; ahead += 1) {
      this.#schedule(ahead);
    }
    const prepared = this.#prepared.get(index) as Promise<PreparedModule>;
    const ready = this.#ready.get(index);
    this.#prepared.delete(index);
    this.#ready.delete(index);
    return { prepared, ready };
  }

  /** Waits for compilations still running (their results are not needed), so none outlives the batch. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#prepared.values()]);
    this.#prepared.clear();
    this.#ready.clear();
  }

  #schedule(index: number): void {
    if (this.#prepared.has(index)) return;
    const module = this.#modules[index];
    if (module === undefined) return;
    const prepared = this.#compiler.prepare(module.resolvedPath);
    // Observed later by take(); avoids an unhandled rejection meanwhile.
    prepared.then((value) => {
      if (this.#prepared.get(index) === prepared) this.#ready.set(index, value);
    }, noop);
    this.#prepared.set(index, prepared);
  }
}

function noop(): void {}
