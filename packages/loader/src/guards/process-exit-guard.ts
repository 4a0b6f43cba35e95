import { AsyncLocalStorage } from "node:async_hooks";
import { describeExitCall, EXIT_METHODS, type ExitMethod } from "./exit-calls.js";
import type { ModuleFaults } from "./module-faults.js";
import { releaseOnce } from "./release-once.js";
import { type StepOutcome, settleStep } from "./settle-step.js";

/** Thrown in place of exiting. */
class ProcessExitSentinel extends Error {
  constructor(
    readonly exitCode: unknown,
    readonly call: string,
  ) {
    super(`${call} was blocked by Tooldock`);
    this.name = "ProcessExitSentinel";
  }
}

interface GuardState {
  exitCode: unknown;
  /** The first call that would have ended the process, e.g. `process.reallyExit(0)`. */
  exitCall: string | undefined;
  /** The step has settled or timed out; a later call comes from a timer or callback it started. */
  settled: boolean;
  /** Where late faults of the module are recorded, when the step belongs to a load batch. */
  faults: ModuleFaults | undefined;
}

const active = new Set<GuardState>();
/** The step that began last (Bun attributes a rejection its stack cannot to it; see the rejection guard). */
let lastStep: GuardState | undefined;
/** Attributes an exit call (or a rejection, or a timer) to the step whose async context made it. */
const currentStep = new AsyncLocalStorage<GuardState>();
/** The methods replaced by {@link install}, as they were; `undefined` while not installed. */
let originals: Partial<Record<ExitMethod, unknown>> | undefined;
let holds = 0;
/** Guards that read the context of ended steps (see {@link holdStepContext}). */
let contextHolds = 0;

/** A stand-in for one of the {@link EXIT_METHODS}: blocks calls from a guarded step, passes the host's on. */
function guardedMethod(method: ExitMethod, original: unknown): (...args: unknown[]) => unknown {
  return function guarded(this: unknown, ...args: unknown[]): unknown {
    const state = currentStep.getStore();
    const call = state === undefined ? undefined : describeExitCall(method, args);
    // A call from outside every guarded step (the host itself), or one that spares this
    // process (a signal to another one), goes through as usual.
    if (state === undefined || call === undefined)
      return (original as (...all: unknown[]) => unknown).apply(this, args);
    if (state.settled) {
      // From a timer or callback of a module whose step has ended: throwing here would be an
      // uncaught exception, which ends the host just the same. Block it and record it.
      state.faults?.lateExits.push(call);
      // What the real method returns when it succeeds: `kill` true, `_kill` 0 (no error).
      return method === "kill" ? true : method === "_kill" ? 0 : undefined;
    }
    if (state.exitCall === undefined) {
      state.exitCall = call;
      state.exitCode = method === "exit" || method === "reallyExit" ? args[0] : undefined;
    }
    throw new ProcessExitSentinel(state.exitCode, state.exitCall);
  };
}

const processMethods = process as unknown as Record<ExitMethod, unknown>;

function install(): void {
  if (originals !== undefined) return;
  originals = {};
  for (const method of EXIT_METHODS) {
    const original = processMethods[method];
    if (typeof original !== "function") continue;
    originals[method] = original;
    processMethods[method] = guardedMethod(method, original);
  }
}

function uninstall(): void {
  if (active.size > 0 || holds > 0) return;
  for (const method of EXIT_METHODS) {
    const original = originals?.[method];
    if (original !== undefined) processMethods[method] = original;
  }
  originals = undefined;
  if (contextHolds > 0) return;
  // On Node 20, `run()` turns on promise hooks that stay on while any AsyncLocalStorage is
  // enabled, slowing every later `await` of the host (0.23 → 0.68 µs). No guarded step is
  // left and no guard reads the context, so drop it; the next `run()` enables it again.
  // Callbacks a module left behind then belong to no step: their exit calls are the host's.
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

/** The faults record of the module whose import or factory began last, if any. */
export function lastStepFaults(): ModuleFaults | undefined {
  return lastStep?.faults;
}

/** Forgets the step that began last: one of an ended batch, whose faults nobody reads any more. */
export function forgetLastStep(): void {
  lastStep = undefined;
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

export type GuardedOutcome<T> =
  | StepOutcome<T>
  | {
      status: "exit";
      /** The code of `process.exit` / `process.reallyExit`; `undefined` for the others. */
      exitCode: unknown;
      /** The call that was blocked, e.g. `process.exit(3)` or `process.kill(4242, "SIGKILL")`. */
      call: string;
    };

/**
 * Runs a step of loading a tool module (its import or its factory) with the process-ending
 * methods (`process.exit`, `reallyExit`, `abort`, and `kill` aimed at this process) replaced
 * by functions that throw, and, when `timeoutMs` is given, a deadline. The originals are
 * restored when the step settles or times out (unless a batch holds the guard, see
 * {@link holdExitGuard}). A step that made such a call reports `exit` even if it caught the
 * throw; calls are attributed to their step through its async context, so overlapping loads
 * do not mix up. A call made after the step ended (from a timer it started) while the guard
 * is installed is blocked without a throw and recorded in `faults`. The outcome comes back
 * synchronously when the step settles at once (see `settleStep`), else as a promise.
 */
export function runGuardedStep<T>(
  step: () => T | Promise<T>,
  timeoutMs?: number,
  faults?: ModuleFaults,
): GuardedOutcome<Awaited<T>> | Promise<GuardedOutcome<Awaited<T>>> {
  const state: GuardState = { exitCode: undefined, exitCall: undefined, settled: false, faults };
  active.add(state);
  lastStep = state;
  install();
  let now: GuardedOutcome<Awaited<T>> | undefined;
  let later: ((outcome: GuardedOutcome<Awaited<T>>) => void) | undefined;
  settleStep(
    (run) => currentStep.run(state, run),
    step,
    timeoutMs,
    (outcome) => {
      state.settled = true;
      active.delete(state);
      uninstall();
      let guarded: GuardedOutcome<Awaited<T>>;
      if (state.exitCall !== undefined)
        guarded = { status: "exit", exitCode: state.exitCode, call: state.exitCall };
      // An ES module that exited while it was first evaluated is cached in that failed
      // state: importing it again rethrows the same sentinel without calling process.exit.
      else if (outcome.status === "throw" && outcome.error instanceof ProcessExitSentinel)
        guarded = { status: "exit", exitCode: outcome.error.exitCode, call: outcome.error.call };
      else guarded = outcome as GuardedOutcome<Awaited<T>>;
      if (later !== undefined) later(guarded);
      else now = guarded;
    },
  );
  if (now !== undefined) return now;
  return new Promise((resolve) => {
    later = resolve;
  });
}
