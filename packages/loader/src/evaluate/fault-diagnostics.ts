import type { Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, createWarning, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import { describeGlobalChanges, type GlobalChange } from "../guards/global-snapshot.js";
import { activeTimers, type ModuleFaults } from "../guards/module-faults.js";

/** `W_GLOBAL_TAMPERING`: the module changed process-wide built-ins while it loaded. */
export function tamperingWarning(module: DiscoveredModule, changes: readonly GlobalChange[]): Diagnostic {
  return createWarning("W_GLOBAL_TAMPERING", {
    message: `${module.path} changed process-wide built-ins while it loaded: ${describeGlobalChanges(changes)}.`,
    path: module.path,
    resolvedPath: module.resolvedPath,
    hint: "A tool module must not patch built-ins or globals: the change reaches the host and every other tool. Tooldock restored what is marked restored or removed; remove the module if you did not expect this.",
  });
}

/**
 * `W_GLOBAL_TAMPERING` for changes found after the last module's own check: made by a timer or
 * callback of a module of the batch. They are reported on each module that left timers
 * running or fired during the batch (the likely authors), or on the last module when none did.
 */
export function lateTamperingWarnings(
  modules: readonly DiscoveredModule[],
  guard: { faultsOf(resolvedPath: string): ModuleFaults },
  changes: readonly GlobalChange[],
): Diagnostic[] {
  const suspects = modules.filter((module) => guard.faultsOf(module.resolvedPath).timers.size > 0);
  const last = modules[modules.length - 1];
  const blamed = suspects.length > 0 ? suspects : last === undefined ? [] : [last];
  return blamed.map((module) =>
    createWarning("W_GLOBAL_TAMPERING", {
      message: `Process-wide built-ins were changed from a timer or callback after the modules loaded (${module.path} started timers while it loaded, or is the last module): ${describeGlobalChanges(changes)}.`,
      path: module.path,
      resolvedPath: module.resolvedPath,
      hint: "A tool module must not patch built-ins or globals, not even later from a timer: the change reaches the host and every other tool. Tooldock restored what is marked restored or removed.",
    }),
  );
}

/**
 * What a module did outside its guarded steps while the batch ran: `process.exit` from a timer
 * or callback (`E_PROCESS_EXIT`), promises rejected with no handler (`W_UNHANDLED_REJECTION`),
 * timers still keeping the process alive at the end of the batch (`W_LEAKED_HANDLE`).
 */
export function lateFaultDiagnostics(module: DiscoveredModule, faults: ModuleFaults): Diagnostic[] {
  const { path, resolvedPath } = module;
  const diagnostics: Diagnostic[] = [];
  if (faults.lateExits.length > 0) {
    const call = faults.lateExits[0];
    diagnostics.push(
      createDiagnostic("E_PROCESS_EXIT", {
        message: `${path} called ${call} from a timer or callback it started while loading; Tooldock blocked it and skipped the module.`,
        path,
        resolvedPath,
        hint: "Throw an error instead of exiting: a tool module must never end the host process (after loading, such a call is no longer blocked).",
      }),
    );
  }
  if (faults.rejections.length > 0) {
    const more = faults.rejections.length > 1 ? ` (and ${faults.rejections.length - 1} more)` : "";
    diagnostics.push(
      createWarning("W_UNHANDLED_REJECTION", {
        message: `A promise of ${path} was rejected with no handler while it loaded: ${describeError(faults.rejections[0])}${more}. Tooldock caught it so the host did not crash.`,
        path,
        resolvedPath,
        hint: "Await or .catch() every promise the module creates: after loading, an unhandled rejection can end the host.",
      }),
    );
  }
  const timers = activeTimers(faults);
  if (timers > 0) {
    diagnostics.push(
      createWarning("W_LEAKED_HANDLE", {
        message: `${path} left ${timers} timer${timers === 1 ? "" : "s"} (setInterval / setTimeout) running after it loaded; they keep the host process alive and run the module's code in the background.`,
        path,
        resolvedPath,
        hint: "Start timers in execute() and clear them when done, clear them in the tool's onSession shutdown, or call .unref() on background timers.",
      }),
    );
  }
  return diagnostics;
}
