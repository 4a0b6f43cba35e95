import { AsyncLocalStorage } from "node:async_hooks";
import type { ModuleFaults } from "./module-faults.js";
import { releaseOnce } from "./release-once.js";

/** Thrown in place of exiting; private so no tool can construct or recognise it by class. */
class ProcessExitSentinel extends Error {
  constructor(readonly exitCode: unknown) {
    super(`process.exit(${exitCode === undefined ? "" : String(exitCode)}) was blocked by Tooldock`);
    this.name = "ProcessExitSentinel";
  }
}

interface GuardState {
  exitCode: unknown;
  exited: boolean;
  /** The step has settled or timed out; a later call comes from a timer or callback it started. */
  settled: boolean;
  /** Where late faults of the module are recorded, when the step belongs to a load batch. */
  faults: ModuleFaults | undefined;
}

/** `instanceof`, false for a thrown value whose prototype cannot be read (a Proxy whose traps throw). */
function isExitSentinel(error: unknown): error is ProcessExitSentinel {
  try {
    return error instanceof ProcessExitSentinel;
  } catch {
    return false;
  }
}

const active = new Set<GuardState>();
/** Attributes a `process.exit` call (or a rejection, or a timer) to the step whose async context made it. */
const currentStep = new AsyncLocalStorage<GuardState>();
let originalExit: typeof process.exit | undefined;
let holds = 0;
/** Guards that read the context of ended steps (see {@link holdStepContext}). */
let contextHolds = 0;

function install(): void {
  if (originalExit !== undefined) return;
  const exit = process.exit;
  originalExit = exit;
  process.exit = ((code?: unknown) => {
    const state = currentStep.getStore();
    // A call from outside every guarded step (the host itself) exits as usual.
    if (state === undefined) return exit.call(process, code as number | undefined);
    if (state.settled) {
      // From a timer or callback of a module whose step has ended: throwing here would be an
      // uncaught exception, which ends the host just the same. Block it and record it.
      state.faults?.lateExits.push(code);
      return undefined as never;
    }
    state.exited = true;
    state.exitCode = code;
    throw new ProcessExitSentinel(code);
  }) as typeof process.exit;
}

function uninstall(): void {
  if (active.size > 0 || holds > 0) return;
  if (originalExit !== undefined) {
    process.exit = originalExit;
    originalExit = undefined;
  }
  if (contextHolds > 0) return;
  // On Node 20, `run()` turns on promise hooks that stay on while any AsyncLocalStorage is
  // enabled, slowing every later `await` of the host (0.23 → 0.68 µs). No guarded step is
  // left and no guard reads the context, so drop it; the next `run()` enables it again.
  // Callbacks a module left behind then belong to no step: their `process.exit` is the host's.
  currentStep.disable();
}

/**
 * Keeps the steps' async context readable through {@link currentModuleFaults} after the steps
 * have ended, until the returned release is called (the rejection guard and the timer tracker
 * read it for callbacks a module started). Without a hold, the context is disabled when the
 * last guarded step ends. Release is idempotent.
 */
export function holdStepContext(): () => void {
  contextHolds += 1;
  return releaseOnce(() => {
    contextHolds -= 1;
    uninstall();
  });
}

/** The faults record of the module whose async context is running, if any. */
export function currentModuleFaults(): ModuleFaults | undefined {
  return currentStep.getStore()?.faults;
}

/**
 * Keeps the `process.exit` replacement installed until the returned release is called (a load
 * batch holds it from its first import to its end), so calls from timers a module started are
 * blocked while the batch runs. Release is idempotent.
 */
export function holdExitGuard(): () => void {
  holds += 1;
  install();
  return releaseOnce(() => {
    holds -= 1;
    uninstall();
  });
}

/** The longest delay `setTimeout` honours; a longer one fires after 1 ms. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** How a guarded step ended. */
export type GuardedOutcome<T> =
  | { status: "ok"; value: T }
  | { status: "throw"; error: unknown }
  | { status: "exit"; exitCode: unknown }
  | { status: "timeout"; timeoutMs: number };

/**
 * Runs a step of loading a tool module (its import or its factory) with `process.exit`
 * replaced by a function that throws, and, when `timeoutMs` is given, a deadline. The
 * original `process.exit` is restored when the step settles or times out (unless a batch holds
 * the guard, see {@link holdExitGuard}). A step that called `process.exit` reports `exit` even
 * if it caught the throw; calls are attributed to their step through its async context, so
 * overlapping loads do not mix up. A call made after the step ended (from a timer it started)
 * while the guard is installed is blocked without a throw and recorded in `faults`.
 */
export async function runGuarded<T>(
  step: () => T | Promise<T>,
  timeoutMs?: number,
  faults?: ModuleFaults,
): Promise<GuardedOutcome<Awaited<T>>> {
  const state: GuardState = { exitCode: undefined, exited: false, settled: false, faults };
  active.add(state);
  install();
  let timer: NodeJS.Timeout | undefined;
  try {
    const running = currentStep
      .run(state, async () => step())
      .then(
        (value): GuardedOutcome<Awaited<T>> => ({ status: "ok", value: value as Awaited<T> }),
        (error: unknown): GuardedOutcome<Awaited<T>> => ({ status: "throw", error }),
      );
    // Past its range (about 24.8 days, or Infinity) setTimeout fires after 1 ms: no deadline then.
    const deadline =
      timeoutMs === undefined || !(timeoutMs <= MAX_TIMER_DELAY_MS)
        ? undefined
        : new Promise<GuardedOutcome<Awaited<T>>>((resolve) => {
            timer = setTimeout(() => resolve({ status: "timeout", timeoutMs }), timeoutMs);
          });
    const outcome = await (deadline === undefined ? running : Promise.race([running, deadline]));
    if (state.exited) return { status: "exit", exitCode: state.exitCode };
    // An ES module that exited while it was first evaluated is cached in that failed state:
    // importing it again rethrows the same sentinel without calling process.exit.
    if (outcome.status === "throw" && isExitSentinel(outcome.error)) {
      return { status: "exit", exitCode: outcome.error.exitCode };
    }
    return outcome;
  } finally {
    state.settled = true;
    if (timer !== undefined) clearTimeout(timer);
    active.delete(state);
    uninstall();
  }
}
