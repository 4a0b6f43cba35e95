import { TooldockError } from "@tooldock/sdk";
import { formatDuration } from "../util/format-duration.js";

/**
 * Default deadline of a pending action's `apply` and `reject` (and of the `onSession` hooks a
 * session awaits): ten minutes, the same as a session's default `executeTimeoutMs`.
 */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 600_000;

/** Longest delay `setTimeout` honours; a larger one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** How a callback that outlived its deadline settled in the end. */
export type LateSettlement<T> = { status: "fulfilled"; value: T } | { status: "rejected"; reason: unknown };

/**
 * How a callback run by {@link settleWithin} ended: it fulfilled or rejected in time, or the
 * deadline came first; `late` then settles (never rejects) with what it did in the end, and
 * never settles when the callback never does.
 */
export type Settlement<T> = LateSettlement<T> | { status: "timed-out"; late: Promise<LateSettlement<T>> };

/**
 * Runs `run` and waits for what it returns (a thenable is adopted, as `await` would; a
 * synchronous throw counts as a rejection) for at most `timeoutMs` milliseconds (a value
 * {@link checkCallbackTimeout} accepts), as `setTimeout` counts time (so fake timers drive it). Never rejects. The timer is referenced
 * while it waits, so a callback that never settles cannot let the process exit in the middle
 * of a resolve or a `dispose()` with nothing said; it is cleared as soon as the callback
 * settles. A later settle (or rejection) of a timed-out callback is never unhandled: it only
 * settles `late`.
 */
export function settleWithin<T>(run: () => T | PromiseLike<T>, timeoutMs: number): Promise<Settlement<T>> {
  const late = new Promise<T>((resolve) => {
    resolve(run());
  }).then(
    (value): LateSettlement<T> => ({ status: "fulfilled", value }),
    (reason: unknown): LateSettlement<T> => ({ status: "rejected", reason }),
  );
  return new Promise((done) => {
    const timer = setTimeout(() => done({ status: "timed-out", late }), timeoutMs);
    late.then((outcome) => {
      clearTimeout(timer);
      done(outcome);
    });
  });
}

/**
 * Whether `promise` settled (fulfilled or rejected: the outcome is dropped) within `ms`
 * milliseconds, by {@link settleWithin}: for a way out that must not hang on a promise that
 * never settles (a `dispose()`, a `reject` that never returns, a cache write), whose timer
 * holds the process no longer than `ms`.
 */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return (await settleWithin(() => promise, ms)).status !== "timed-out";
}

/**
 * The error a timed-out callback is reported with (`E_CALLBACK_TIMEOUT`), e.g. on an
 * `action-apply-failed` or `action-discarded` event. `what` names the callback:
 * `the apply of pending action "Rename 3 files" (id …)`.
 */
export function callbackTimeoutError(what: string, timeoutMs: number): TooldockError {
  return new TooldockError(
    "E_CALLBACK_TIMEOUT",
    `${capitalise(what)} did not settle within ${formatDuration(timeoutMs)}; it was given up and may still be running.`,
  );
}

/**
 * Throws `E_INVALID_OPTION` unless `value` is an integer from 1 to 2147483647: a callback
 * deadline always exists, so `Infinity` and `0` are refused.
 */
export function checkCallbackTimeout(name: string, value: number): number {
  if (Number.isInteger(value) && value >= 1 && value <= MAX_TIMER_MS) return value;
  throw new TooldockError(
    "E_INVALID_OPTION",
    `${name} must be an integer number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(value)}. ` +
      "Pending-action callbacks always have a deadline; pass a large value for a long one.",
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
