import type { Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, createWarning, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import { activeTimers, type ModuleFaults } from "../guards/module-faults.js";

/** `W_PROCESS_LISTENER`: while it loaded, the module listened to `process` events that end the host. */
export function processListenerWarning(module: DiscoveredModule, events: readonly string[]): Diagnostic {
  const listed = events.map((event) => `"${event}"`).join(", ");
  return createWarning("W_PROCESS_LISTENER", {
    message: `${module.path} added a process listener for ${listed} while it loaded: it runs in the host and decides how the host fails or ends (an "exit" listener can change its exit code).`,
    ...module,
    hint: "Leave process listeners to the host: clean up in the tool's onSession shutdown instead, and handle errors where they happen. Remove the module if you did not expect this.",
  });
}

/** What a module did outside its guarded steps while the batch ran (late exits, rejections, timers). */
export function lateFaultDiagnostics(module: DiscoveredModule, faults: ModuleFaults): Diagnostic[] {
  const { path } = module;
  const diagnostics: Diagnostic[] = [];
  if (faults.lateExits.length > 0) {
    const call = faults.lateExits[0];
    diagnostics.push(
      createDiagnostic("E_PROCESS_EXIT", {
        message: `${path} called ${call} from a timer or callback it started while loading; Tooldock blocked it and skipped the module.`,
        ...module,
        hint: "Throw an error instead of exiting: a tool module must never end the host process (after loading, such a call is no longer blocked).",
      }),
    );
  }
  if (faults.rejections.length > 0) {
    const more = faults.rejections.length > 1 ? ` (and ${faults.rejections.length - 1} more)` : "";
    diagnostics.push(
      createWarning("W_UNHANDLED_REJECTION", {
        message: `A promise of ${path} was rejected with no handler while it loaded: ${describeError(faults.rejections[0])}${more}. Tooldock caught it so the host did not crash.`,
        ...module,
        hint: "Await or .catch() every promise the module creates: after loading, an unhandled rejection can end the host.",
      }),
    );
  }
  const timers = activeTimers(faults);
  if (timers > 0) {
    diagnostics.push(
      createWarning("W_LEAKED_HANDLE", {
        message: `${path} left ${timers} timer${timers === 1 ? "" : "s"} (setInterval / setTimeout) running after it loaded; they keep the host process alive and run the module's code in the background.`,
        ...module,
        hint: "Start timers in execute() and clear them when done, clear them in the tool's onSession shutdown, or call .unref() on background timers.",
      }),
    );
  }
  return diagnostics;
}
