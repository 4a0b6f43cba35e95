import type { DeadlineTimer, DeadlineTimers } from "./deadline-timers.js";
import type { InFlightCalls, InFlightEntry } from "./in-flight-calls.js";
import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** A call's stop as the loader's proxies hear of it: see {@link callStopOf}. */
export interface CallStop {
  /** True once the call has ended (its tool settled, or it was stopped). */
  readonly ended: boolean;
  /** See {@link CallAbort.onStop}. */
  onStop(listener: () => void): boolean;
}

/**
 * Where a call's context holds its stop (see `linkContext`): a property, not a `WeakMap` entry.
 * A `WeakMap` keyed by a fresh object per call cost the host 15–30 µs a call on Node 20 (its
 * entries are ephemerons, which every young-generation collection walks).
 */
const CALL_STOP: unique symbol = Symbol("tooldock.callStop");

/**
 * Links `ctx`, the context a session made for one call, to that call's stop, for an `execute`
 * marked `STOP_THROUGH_CONTEXT` (which gets no `AbortSignal`).
 */
export function linkContext(ctx: object, stop: CallStop): void {
  (ctx as { [CALL_STOP]?: CallStop })[CALL_STOP] = stop;
}

/**
 * The stop of the call a session made `ctx` for, when its tool's `execute` is marked
 * `STOP_THROUGH_CONTEXT`; `undefined` for any other value (a context a host made itself, a
 * tool that is not marked). Exact: the same `execute` registered under another name, or in a
 * copy of its tool, still reaches its call. A wrapper around it is not marked, so its context
 * is linked to nothing.
 */
export function callStopOf(ctx: unknown): CallStop | undefined {
  if (typeof ctx !== "object" || ctx === null || !Object.hasOwn(ctx, CALL_STOP)) return undefined;
  return (ctx as { [CALL_STOP]?: CallStop })[CALL_STOP];
}

/** What stopped a call before its tool settled. */
export type StopCause = "aborted" | "timeout" | "disposed";

/** What can stop one call before its tool settles. */
export interface CallAbortOptions {
  name: string;
  /** The host's signal for this call (already checked not to be aborted). */
  hostSignal: AbortSignal | undefined;
  /** The session's deadline timers: this call's stops it at the deadline. */
  deadlines: DeadlineTimers;
  /** Whether the tool gets an `AbortSignal` (see `toolSeesSignal`). */
  withSignal: boolean;
  /** The session's calls in flight: this call is in it until it ends (`dispose()` stops them). */
  inFlight: InFlightCalls;
  /** Called once, when the call stops first, with the error result for the model. */
  onStop(outcome: StepOutcome<never>): void;
}

/**
 * One call's stop wiring. The host's signal, `ctx.abort()`, `dispose()` (through the
 * session's `InFlightCalls`) and the deadline each call {@link CallAbort.stop}, which ends the
 * call at once with the error result that says which of them stopped it. The tool's `signal`
 * (created only for a tool that can see it) is then aborted with the matching reason: the
 * host's, `ctx.abort()`'s error, a `TimeoutError` `DOMException` (as `AbortSignal.timeout`
 * gives) or a disposal error. Nothing listens on the call's own signal.
 */
export class CallAbort implements InFlightEntry, CallStop {
  /** The name of the tool the call runs. */
  readonly name: string;
  /** Its place in the session's calls in flight (see {@link InFlightEntry}). */
  previous: InFlightEntry | undefined = undefined;
  next: InFlightEntry | undefined = undefined;
  onEnd: (() => void) | undefined = undefined;
  /** The tool's `signal`; undefined for a tool that cannot see it. */
  readonly signal: AbortSignal | undefined;
  readonly #controller: AbortController | undefined;
  // The options' fields, not the options object: an object literal that does not escape the
  // constructor costs no allocation once V8 inlines it.
  readonly #hostSignal: AbortSignal | undefined;
  readonly #deadlines: DeadlineTimers;
  readonly #inFlight: InFlightCalls;
  readonly #onStop: (outcome: StepOutcome<never>) => void;
  readonly #onHostAbort: (() => void) | undefined;
  /** The call's deadline timer, once {@link DeadlineTimers} armed one (see there: lazily). */
  deadlineTimer: DeadlineTimer | undefined;
  /** Told after a stop, once, in order (see {@link CallAbort.onStop}); dropped when the call ends. */
  #stopListeners: Array<() => void> | undefined = undefined;
  #ended = false;

  constructor(options: CallAbortOptions) {
    this.name = options.name;
    this.#hostSignal = options.hostSignal;
    this.#deadlines = options.deadlines;
    this.#inFlight = options.inFlight;
    this.#onStop = options.onStop;
    if (options.withSignal) {
      this.#controller = new AbortController();
      this.signal = this.#controller.signal;
    }
    const hostSignal = options.hostSignal;
    if (hostSignal !== undefined) {
      this.#onHostAbort = () => this.stop("aborted", hostSignal.reason);
      hostSignal.addEventListener("abort", this.#onHostAbort, { once: true });
    }
    options.deadlines.start(this);
    options.inFlight.add(this);
  }

  /** True once the call has ended, whether its tool settled or it was stopped. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Ends the call now with the error result for `cause`; does nothing once it has ended.
   * `reason` is the abort reason of an `"aborted"` call (the host's, or `ctx.abort()`'s).
   */
  stop(cause: StopCause, reason?: unknown): void {
    const listeners = this.#stopListeners;
    if (!this.end()) return;
    const name = this.name;
    const onStop = this.#onStop;
    const timeoutMs = this.#deadlines.timeoutMs;
    // The answer first: whatever the tool's abort listeners do next comes after its call.
    if (cause === "timeout") {
      onStop(failed(toolCallMessages.timedOut(name, timeoutMs)));
      const message = `Tool "${name}" did not finish within ${timeoutMs} ms.`;
      this.#controller?.abort(new DOMException(message, "TimeoutError"));
    } else if (cause === "disposed") {
      onStop(failed(toolCallMessages.stoppedByDispose(name)));
      this.#controller?.abort(new Error("The session was disposed."));
    } else {
      onStop(failed(toolCallMessages.aborted(name, reason)));
      this.#controller?.abort(reason);
    }
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an abort listener's throw: reported as uncaught, never in the way of the stop.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /**
   * Calls `listener` once if the call is stopped (aborted, timed out, disposed), after its
   * answer and after its `signal` (if any) is aborted; never when its tool settles first.
   * Returns false, and keeps nothing, when the call has ended already. What the loader's
   * proxies of isolated tools use instead of an `AbortSignal` (see {@link callStopOf}), which
   * costs microseconds per call on Node 20.
   */
  onStop(listener: () => void): boolean {
    if (this.#ended) return false;
    if (this.#stopListeners === undefined) this.#stopListeners = [listener];
    else this.#stopListeners.push(listener);
    return true;
  }

  /**
   * Marks the call ended, takes it out of the calls in flight, removes the host listener and
   * clears the timer. Returns false when it had already ended: the tool settled after a stop,
   * or was stopped after it settled.
   */
  end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    this.#stopListeners = undefined;
    this.#inFlight.delete(this);
    this.#deadlines.release(this);
    if (this.#onHostAbort !== undefined) this.#hostSignal?.removeEventListener("abort", this.#onHostAbort);
    return true;
  }
}
