import type { ModuleFaults } from "./module-faults.js";
import {
  currentModuleFaults,
  forgetLastStep,
  holdStepContext,
  lastStepFaults,
} from "./process-exit-guard.js";
import { releaseOnce } from "./release-once.js";

type Emit = typeof process.emit;

/** Finds the module a rejection belongs to when its async context cannot say (Bun). */
export type RejectionAttributor = (reason: unknown) => ModuleFaults | undefined;

let originalEmit: Emit | undefined;
let wrapper: Emit | undefined;
let bunListener: ((reason: unknown) => void) | undefined;
const attributors = new Set<RejectionAttributor>();
let holds = 0;

/**
 * While held, an `unhandledRejection` raised from a tool module's async context (a promise its
 * import or factory created, or one created by a timer it started) is recorded in the module's
 * faults and not passed on: neither Node's default (which ends the process) nor the host's own
 * listeners see it. Other rejections reach `process.emit` unchanged. Implemented by wrapping
 * `process.emit`, the one call Node makes for every unhandled rejection; the wrapper is removed
 * when the last hold is released (unless someone replaced `process.emit` meanwhile).
 *
 * Bun calls the listeners without `process.emit`, outside the promise's async context: there
 * a listener of the guard's own records each rejection for the module whose file its reason's
 * stack names (found by `attribute`, given by each batch), else for the module whose import or
 * factory began last. The host's own listeners still see it.
 */
export function holdRejectionGuard(attribute?: RejectionAttributor): () => void {
  holds += 1;
  if (attribute !== undefined) attributors.add(attribute);
  const releaseContext = holdStepContext();
  if (originalEmit === undefined) {
    const emit = process.emit;
    originalEmit = emit;
    process.emit = function (this: NodeJS.Process, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "unhandledRejection") {
        const faults = currentModuleFaults();
        if (faults !== undefined) {
          faults.rejections.push(args[0]);
          return true;
        }
      }
      return (emit as (...all: unknown[]) => boolean).call(this, event, ...args);
    } as Emit;
    wrapper = process.emit;
  }
  if (process.versions.bun !== undefined && bunListener === undefined) {
    forgetLastStep();
    bunListener = onBunRejection;
    process.prependListener("unhandledRejection", bunListener);
  }
  return releaseOnce(() => {
    holds -= 1;
    if (attribute !== undefined) attributors.delete(attribute);
    releaseContext();
    if (holds > 0 || originalEmit === undefined) return;
    if (process.emit === wrapper) process.emit = originalEmit;
    originalEmit = undefined;
    wrapper = undefined;
    if (bunListener !== undefined) process.removeListener("unhandledRejection", bunListener);
    bunListener = undefined;
  });
}

function onBunRejection(reason: unknown): void {
  let faults = currentModuleFaults();
  for (const attribute of attributors) faults ??= attribute(reason);
  // Bun reports a turn's rejections at its end: most likely of the module whose code ran last.
  faults ??= lastStepFaults();
  if (faults !== undefined) {
    faults.rejections.push(reason);
    return;
  }
  // Before any module ran: without a listener of the host's, Bun would end the process; so it does.
  if (process.listenerCount("unhandledRejection") === 1) throw reason;
}
