import { createHook } from "node:async_hooks";
import { currentModuleFaults, holdStepContext } from "./process-exit-guard.js";
import { releaseOnce } from "./release-once.js";

let holds = 0;
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type !== "Timeout") return;
    const faults = currentModuleFaults();
    faults?.timers.add(resource as NodeJS.Timeout);
  },
});

/**
 * While held, every timer created from a tool module's async context is recorded in the
 * module's faults, so the end of the batch can tell which modules left timers running.
 * Uses an `async_hooks` init hook, enabled only while a batch loads.
 */
export function holdTimerTracking(): () => void {
  holds += 1;
  if (holds === 1) hook.enable();
  const releaseContext = holdStepContext();
  return releaseOnce(() => {
    holds -= 1;
    if (holds === 0) hook.disable();
    releaseContext();
  });
}
