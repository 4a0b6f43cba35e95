import type { BuildUnit } from "../build/build-stage.js";
import type { DiscoveredModule } from "../discover/types.js";
import { andThen } from "../guards/now-or-later.js";
import { type GuardedOutcome, runGuardedStep } from "../guards/process-exit-guard.js";
import {
  exitDiagnostic,
  fail,
  internalFailure,
  type LoadModuleStep,
  loadModule,
  type ModuleOutcome,
} from "./load-module.js";

/** What the evaluate stage needs besides the unit: the `pi` API, the deadline, the guards' records. */
export type EvaluateStep = Omit<LoadModuleStep, "compiled">;

/**
 * The output of the evaluate stage for one module: the entries its factory returned (not
 * read yet: reading them is the accept stage's, under its own guard), or the diagnostic that
 * stopped it.
 */
export interface EvaluatedModule {
  readonly module: DiscoveredModule;
  readonly outcome: ModuleOutcome;
}

/**
 * Stage 3, evaluate: a unit → its factory's result, under the guards. Imports the unit and
 * runs its factory ({@link loadModule}: each under the `process.exit` guard and the deadline),
 * all inside one guarded step of the module with no deadline of its own, since reading its
 * exports runs its code too (a getter of `default`, a `message` getter of what it threw): a
 * `process.exit` there is blocked like one made by the import or the factory. The result comes
 * back at once when nothing waited (see `loadModule`), else as a promise; never rejects.
 */
export function evaluate(unit: BuildUnit, step: EvaluateStep): EvaluatedModule | Promise<EvaluatedModule> {
  const { module } = unit;
  const guarded = runGuardedStep(
    () => loadModule(module, { ...step, compiled: unit.prepared, ready: unit.ready }),
    undefined,
    step.faults,
  );
  return andThen(guarded, (outcome) => finish(module, outcome));
}

function finish(module: DiscoveredModule, guarded: GuardedOutcome<ModuleOutcome>): EvaluatedModule {
  if (guarded.status === "ok") return { module, outcome: guarded.value };
  const where = "while Tooldock read what it exported";
  if (guarded.status === "exit")
    return { module, outcome: fail(exitDiagnostic(module, guarded.call, where)) };
  return { module, outcome: internalFailure(module, guarded.status === "throw" ? guarded.error : "timeout") };
}
