export type StepOutcome<T> =
  | { status: "ok"; value: T }
  | { status: "throw"; error: unknown }
  | { status: "timeout"; timeoutMs: number };

/** The longest delay `setTimeout` honours; a longer one fires after 1 ms. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/**
 * Runs `step` (inside `runInContext`) and calls `done` exactly once: with its value, with what
 * it threw or rejected with, or, when `timeoutMs` is given and passes first, with `timeout`.
 * A step that returns a value that is not a thenable (a synchronous factory) or throws is
 * done at once, before `settleStep` returns: no promise, no turn of the microtask queue.
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
    if (timer !== undefined) clearTimeout(timer);
    done(outcome);
  };
  runInContext(() => {
    let result: unknown;
    try {
      result = step();
    } catch (error) {
      finish({ status: "throw", error });
      return;
    }
    if (!isThenable(result)) {
      finish({ status: "ok", value: result as Awaited<T> });
      return;
    }
    Promise.resolve(result).then(
      (value) => finish({ status: "ok", value: value as Awaited<T> }),
      (error: unknown) => finish({ status: "throw", error }),
    );
  });
  // Past its range (about 24.8 days, or Infinity) setTimeout fires after 1 ms: no deadline then.
  if (settled || timeoutMs === undefined || !(timeoutMs <= MAX_TIMER_DELAY_MS)) return;
  // Armed one promise job later: a step that returned a promise that had already settled (a
  // module compiled ahead) is done by then and needs no timer.
  queueMicrotask(() => {
    if (settled) return;
    timer = setTimeout(() => finish({ status: "timeout", timeoutMs }), timeoutMs);
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    ((typeof value === "object" && value !== null) || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
