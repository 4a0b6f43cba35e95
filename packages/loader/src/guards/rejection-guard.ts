import { currentModuleFaults, holdStepContext } from "./process-exit-guard.js";
import { releaseOnce } from "./release-once.js";

type Emit = typeof process.emit;

let originalEmit: Emit | undefined;
let wrapper: Emit | undefined;
let holds = 0;

/**
 * While held, an `unhandledRejection` raised from a tool module's async context (a promise its
 * import or factory created, or one created by a timer it started) is recorded in the module's
 * faults and not passed on: neither Node's default (which ends the process) nor the host's own
 * listeners see it. Other rejections reach `process.emit` unchanged. Implemented by wrapping
 * `process.emit`, the one call Node makes for every unhandled rejection; the wrapper is removed
 * when the last hold is released (unless someone replaced `process.emit` meanwhile).
 */
export function holdRejectionGuard(): () => void {
  holds += 1;
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
  return releaseOnce(() => {
    holds -= 1;
    releaseContext();
    if (holds > 0 || originalEmit === undefined) return;
    if (process.emit === wrapper) process.emit = originalEmit;
    originalEmit = undefined;
    wrapper = undefined;
  });
}
