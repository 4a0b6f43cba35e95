import type { BuildUnit } from "../build/build-stage.js";
import type { DiscoveredModule } from "../discover/types.js";
import { andThen, type LoadModuleStep, loadModule, type ModuleOutcome } from "./load-module.js";

/** One module's outcome: the entries its factory returned (read by the accept stage), or its diagnostic. */
export interface EvaluatedModule {
  readonly module: DiscoveredModule;
  readonly outcome: ModuleOutcome;
}

/** Stage 3, evaluate: a unit → its factory's result ({@link loadModule}), at once when nothing waited. */
export function evaluate(unit: BuildUnit, step: LoadModuleStep): EvaluatedModule | Promise<EvaluatedModule> {
  return andThen(loadModule(unit, step), (outcome) => ({ module: unit.module, outcome }));
}
