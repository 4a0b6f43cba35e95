import type { BuildUnit } from "../build/build-stage.js";
import type { DiscoveredModule } from "../discover/types.js";
import { andThen } from "../guards/now-or-later.js";
import { type LoadModuleStep, loadModule, type ModuleOutcome } from "./load-module.js";

/** What the evaluate stage needs besides the unit: the `pi` API, the deadline, the guards' records. */
export type EvaluateStep = Omit<LoadModuleStep, "compiled">;

/**
 * The output of the evaluate stage for one module: the entries its factory returned (not
 * read yet: reading them is the accept stage's), or the diagnostic that stopped it.
 */
export interface EvaluatedModule {
  readonly module: DiscoveredModule;
  readonly outcome: ModuleOutcome;
}

/**
 * Stage 3, evaluate: a unit → its factory's result. Imports the unit and runs its factory
 * ({@link loadModule}: each under the `process.exit` guard and the deadline). The result comes
 * back at once when nothing waited (see `loadModule`), else as a promise; never rejects.
 */
export function evaluate(unit: BuildUnit, step: EvaluateStep): EvaluatedModule | Promise<EvaluatedModule> {
  const { module } = unit;
  const loading = loadModule(module, { ...step, compiled: unit.prepared, ready: unit.ready });
  return andThen(loading, (outcome) => ({ module, outcome }));
}
