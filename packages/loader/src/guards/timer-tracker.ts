import * as module from "node:module";
import timers from "node:timers";
import { currentModuleFaults, holdStepContext } from "./process-exit-guard.js";
import { releaseOnce } from "./release-once.js";

/** The functions that start a timer that keeps the process alive until it is cleared. */
const TIMER_FUNCTIONS = ["setTimeout", "setInterval"] as const;
type TimerFunction = (typeof TIMER_FUNCTIONS)[number];

/** Where tool code finds them: the globals, and `node:timers` (its ES named exports follow it). */
const homes = [globalThis, timers] as unknown as Array<Record<TimerFunction, unknown>>;

let holds = 0;
/** Per timer function, the one replaced and the stand-in put in its place, while installed. */
let installed: Array<{ name: TimerFunction; original: unknown; standIn: unknown }> | undefined;

/** A stand-in for `original` that records each timer it starts in the calling module's faults. */
function recording(original: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    const timer = Reflect.apply(original, this, args);
    currentModuleFaults()?.timers.add(timer as NodeJS.Timeout);
    return timer;
  };
  // `name`, `length`, and `util.promisify.custom` (setTimeout's promise form) stay the original's.
  Object.defineProperties(standIn, Object.getOwnPropertyDescriptors(original));
  return standIn;
}

function install(): void {
  installed = [];
  for (const name of TIMER_FUNCTIONS) {
    const original = globalThis[name] as unknown as (...args: unknown[]) => unknown;
    if (typeof original !== "function") continue;
    const standIn = recording(original);
    installed.push({ name, original, standIn });
    for (const home of homes) if (home[name] === original) home[name] = standIn;
  }
  module.syncBuiltinESMExports?.();
}

function uninstall(): void {
  for (const { name, original, standIn } of installed ?? []) {
    // Replaced again meanwhile (fake timers of a test runner): that one stays.
    for (const home of homes) if (home[name] === standIn) home[name] = original;
  }
  installed = undefined;
  module.syncBuiltinESMExports?.();
}

/**
 * While held, every `setTimeout` and `setInterval` timer started from a tool module's async
 * context (the global functions, or `node:timers`') is recorded in the module's faults, so the
 * end of the batch can tell which modules left timers running (`W_LEAKED_HANDLE`). The two
 * functions are replaced by recording stand-ins while a batch loads, rather than watched with
 * an `async_hooks` hook: an init hook turns on promise hooks, which every promise of the load
 * then pays for.
 */
export function holdTimerTracking(): () => void {
  holds += 1;
  if (holds === 1) install();
  const releaseContext = holdStepContext();
  return releaseOnce(() => {
    holds -= 1;
    if (holds === 0) uninstall();
    releaseContext();
  });
}
