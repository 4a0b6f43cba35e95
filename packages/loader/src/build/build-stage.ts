import type { Diagnostic } from "@tooldock/sdk";
import type { PreparedModule } from "../compile/prepared-module.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { LoadContext } from "../options.js";
import { CompileAhead } from "./compile-ahead.js";
import { createModuleCompiler, type ModuleCompiler } from "./module-compiler.js";

/**
 * The output of the build stage for one module: its evaluable unit. `prepared` settles with
 * what evaluates it (an import of its bundle, its pack member, or jiti's evaluation), or
 * rejects with why it did not compile.
 */
export interface BuildUnit {
  module: DiscoveredModule;
  prepared: Promise<PreparedModule>;
  /** The same, when it had settled by the time the unit was taken: evaluated without waiting. */
  ready?: PreparedModule | undefined;
}

/**
 * Stage 2, build: module entries → evaluable units. The input is the discover stage's
 * modules, announced with {@link BuildStage.found} as they are found (the next esbuild cache
 * miss builds every stale announced entry in one build, and consecutive entries are grouped
 * into packs) and taken in order with {@link BuildStage.unit} (a few are compiled ahead of the
 * one being evaluated). Compiles with esbuild into the cache, or with jiti; the cache checks
 * and fallbacks are `createModuleCompiler`'s.
 */
export class BuildStage {
  readonly #compiler: ModuleCompiler;
  readonly #ahead: CompileAhead;
  #next = 0;

  /**
   * `found` is the discover stage's list of modules so far (it grows as they are found);
   * `onWarning` receives the compiler's warnings (a fallback, a cache that cannot be used).
   */
  constructor(
    context: Pick<LoadContext, "compiler" | "cacheDir" | "packsDir">,
    found: readonly DiscoveredModule[],
    onWarning: (diagnostic: Diagnostic) => void,
  ) {
    this.#compiler = createModuleCompiler(context.compiler, context.cacheDir, onWarning, context.packsDir);
    this.#ahead = new CompileAhead(this.#compiler, found);
  }

  /** Announces a module the load will take, in discovery order. */
  found(module: DiscoveredModule): void {
    this.#compiler.plan?.([module.resolvedPath]);
  }

  /** Discovery ended: no module follows the ones announced (the last pack is complete). */
  discoveryEnded(): void {
    this.#compiler.planEnded?.();
  }

  /** The unit of the next module, `module` (taken in discovery order). */
  unit(module: DiscoveredModule): BuildUnit {
    const { prepared, ready } = this.#ahead.take(this.#next);
    this.#next += 1;
    return { module, prepared, ready };
  }

  /** Ends the stage: waits for compilations still running and stops esbuild's service. */
  async close(): Promise<void> {
    await this.#ahead.settle();
    await this.#compiler.close();
  }

  /** Settles once the cache holds what the stage left for after it (see `ModuleCompiler.cached`). */
  cached(): Promise<Diagnostic[]> {
    return this.#compiler.cached();
  }
}
