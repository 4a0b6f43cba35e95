import {
  IsPromise,
  inheritsBuiltInThen,
  PromiseCtor,
  PromisePrototypeThen,
  ReflectApply,
  SafeClearTimeout,
  SafeSetTimeout,
} from "./primordials.js";

/** How a step ended, as a null-prototype object: safe to pass through any promise. */
export type StepOutcome<T> =
  | { status: "ok"; value: T }
  | { status: "throw"; error: unknown }
  | { status: "timeout"; timeoutMs: number };

/** The longest delay `setTimeout` honours; a longer one fires after 1 ms. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * Runs `step` (inside `runInContext`) and calls `done` exactly once: with its value, with what
 * it threw or rejected with, or, when `timeoutMs` is given and passes first, with `timeout`.
 *
 * It relies on nothing a tool module can change: no `Promise.race` or `Promise.resolve`, no
 * `await` of the step's value (an object that inherits a hostile `Object.prototype.then`
 * would be "followed" and never settle), the timers of `node:timers` as they were when the
 * loader loaded, and outcomes with no prototype. A native promise is followed through the
 * original `Promise.prototype.then`; another thenable through its own `then`, unless that
 * `then` is inherited from a built-in prototype (tampering, not a thenable): then the object
 * itself is the value.
 */
export function settleStep<T>(
  runInContext: (run: () => void) => void,
  step: () => T | Promise<T>,
  timeoutMs: number | undefined,
  done: (outcome: StepOutcome<Awaited<T>>) => void,
): void {
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  const finish = (outcome: StepOutcome<Awaited<T>>) => {
    if (settled) return;
    settled = true;
    if (timer !== undefined) SafeClearTimeout(timer);
    done(outcome);
  };
  const onValue = (value: unknown) =>
    finish({ __proto__: null, status: "ok", value } as StepOutcome<Awaited<T>>);
  const onError = (error: unknown) =>
    finish({ __proto__: null, status: "throw", error } as StepOutcome<Awaited<T>>);
  runInContext(() => {
    let result: unknown;
    try {
      result = step();
    } catch (error) {
      onError(error);
      return;
    }
    follow(result, onValue, onError, 0);
  });
  // Past its range (about 24.8 days, or Infinity) setTimeout fires after 1 ms: no deadline then.
  if (settled || timeoutMs === undefined || !(timeoutMs <= MAX_TIMER_DELAY_MS)) return;
  // Armed one promise job later: a step that returned a value or a promise that had already
  // settled (a sync factory, a module compiled ahead) is done by then and needs no timer.
  PromisePrototypeThen(
    SETTLED,
    () => {
      if (settled) return;
      timer = SafeSetTimeout(
        () => finish({ __proto__: null, status: "timeout", timeoutMs } as StepOutcome<Awaited<T>>),
        timeoutMs,
      );
    },
    noop,
  );
}

const SETTLED: Promise<void> = PromiseCtor.resolve();

function noop(): void {}

/** How many thenables in a row are followed before the value is taken as it is. */
const MAX_THENABLE_DEPTH = 32;

/** Resolves `value` as a promise would, without the lookups a tool module can hijack. */
function follow(
  value: unknown,
  onValue: (value: unknown) => void,
  onError: (error: unknown) => void,
  depth: number,
): void {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") {
    onValue(value);
    return;
  }
  // Asked first, so a plain result (a factory's list of tools) costs no thrown TypeError.
  if (IsPromise(value)) {
    try {
      PromisePrototypeThen(value, onValue, onError);
      return;
    } catch {
      // A native promise whose `constructor` fights back: look for a thenable.
    }
  }
  let then: unknown;
  try {
    if (depth >= MAX_THENABLE_DEPTH || inheritsBuiltInThen(value)) {
      onValue(value);
      return;
    }
    then = (value as { then?: unknown }).then;
  } catch (error) {
    onError(error);
    return;
  }
  if (typeof then !== "function") {
    onValue(value);
    return;
  }
  let called = false;
  try {
    ReflectApply(then, value, [
      (next: unknown) => {
        if (called) return;
        called = true;
        follow(next, onValue, onError, depth + 1);
      },
      (error: unknown) => {
        if (called) return;
        called = true;
        onError(error);
      },
    ]);
  } catch (error) {
    if (!called) {
      called = true;
      onError(error);
    }
  }
}
