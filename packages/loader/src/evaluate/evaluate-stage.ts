import type { BuildUnit } from "../build/build-stage.js";
import type { DiscoveredModule } from "../discover/types.js";
import { andThen, type LoadModuleStep, loadModule, type ModuleOutcome } from "./load-module.js";

/** What the evaluate stage needs besides the unit: the `pi` API, the deadline, the guards' records. */
export type EvaluateStep = Omit<LoadModuleStep, "compiled">;

/** One module's outcome: the entries its factory returned (read by the accept stage), or its diagnostic. */
export interface EvaluatedModule {
  readonly module: DiscoveredModule;
  readonly outcome: ModuleOutcome;
}

/** Stage 3, evaluate: a unit → its factory's result ({@link loadModule}), at once when nothing waited. */
export function evaluate(unit: BuildUnit, step: EvaluateStep): EvaluatedModule | Promise<EvaluatedModule> {
  const { module } = unit;
  const loading = loadModule(module, { ...step, compiled: unit.prepared, ready: unit.ready });
  return andThen(loading, (outcome) => ({ module, outcome }));
}
