import type { CallAbort } from "./call-abort.js";

// Captured when this module is evaluated: a tool module cannot change how deadlines are armed.
const nextTick = process.nextTick;
/** The fallback when the global `setTimeout` (read at arming, so fake timers drive deadlines) throws. */
const setTimeoutIntrinsic = setTimeout;

/** A timer that stops `call` when it fires; `call` is cleared when the call ends first. */
export class DeadlineTimer {
  call: CallAbort | undefined;
  readonly timeout: ReturnType<typeof setTimeout>;

  constructor(call: CallAbort, timeoutMs: number, start: typeof setTimeout = setTimeout) {
    this.call = call;
    this.timeout = start(onDeadline, timeoutMs, this);
  }
}

/**
 * The deadline timers of one session's calls: each call still running once the synchronous
 * run it started in is over gets a timer that stops it (`"timeout"`) `timeoutMs` later, as
 * `setTimeout` counts time (so fake timers in a host's tests drive it).
 *
 * **Armed lazily.** A call that starts is only noted; when the current run of JavaScript and
 * its microtasks is over (`process.nextTick`, one per such run, however many calls started
 * in it), each noted call that is still running gets its timer. A tool that settles within
 * that run (its `execute` computes and returns) never costs a timer; a tool that waits for
 * I/O or a timer gets one before the event loop goes on, so it is kept alive and stopped as
 * before. The deadline thus counts from the end of the synchronous run the call started in,
 * not from its first line: later by however long that run lasted (the tool's own synchronous
 * part included), never earlier. Arming a timer per call (even by `refresh()` of a kept
 * one: a read of the loop's clock and two ref count changes) was the largest cost of a call
 * of a tool that settles at once.
 *
 * A call that ends after its timer was armed does not always clear it: one is kept,
 * unreferenced (it never keeps the process alive), and the next armed call re-arms it with
 * `refresh()`, so Node's list of timers of that duration does not empty and fill again.
 */
export class DeadlineTimers {
  /** `Infinity`: no deadline, no timer. */
  readonly timeoutMs: number;
  #spare: DeadlineTimer | undefined;
  #closed = false;
  /** Calls started since the last arming, in start order (ended ones are skipped then). */
  readonly #waiting: CallAbort[] = [];
  #armScheduled = false;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Notes a call that starts now: if it is still running when this run of code ends, it gets its timer. */
  start(call: CallAbort): void {
    if (this.timeoutMs === Number.POSITIVE_INFINITY || this.#closed) return;
    this.#waiting.push(call);
    if (!this.#armScheduled) {
      this.#armScheduled = true;
      nextTick(armWaiting, this);
    }
  }

  /** Gives each noted call still running its timer (`call.deadlineTimer`). */
  armWaiting(): void {
    this.#armScheduled = false;
    const waiting = this.#waiting;
    for (let index = 0; index < waiting.length; index++) {
      const call = waiting[index] as CallAbort;
      if (!call.ended && !this.#closed) call.deadlineTimer = this.#armOrFallBack(call);
    }
    waiting.length = 0;
  }

  /** The call ended: its timer (if it was armed) will not stop it; kept for the next call or cleared. */
  release(call: CallAbort): void {
    const timer = call.deadlineTimer;
    if (timer === undefined) {
      // Not armed yet: forget it now when it is the newest (one call after another), else at arming.
      const waiting = this.#waiting;
      if (waiting[waiting.length - 1] === call) waiting.pop();
      return;
    }
    call.deadlineTimer = undefined;
    timer.call = undefined;
    if (this.#spare === undefined && !this.#closed) {
      timer.timeout.unref();
      this.#spare = timer;
    } else {
      clearTimeout(timer.timeout);
    }
  }

  /** Clears the kept timer and arms no more; calls whose timer runs clear it when they end. */
  close(): void {
    this.#closed = true;
    this.#waiting.length = 0;
    if (this.#spare !== undefined) clearTimeout(this.#spare.timeout);
    this.#spare = undefined;
  }

  /**
   * `#arm`, or a timer of the `setTimeout` captured at load when that
   * throws (a tool replaced the global one): this runs in a `nextTick`, where a throw would be
   * an uncaught exception of the host, and the call would have no deadline.
   */
  #armOrFallBack(call: CallAbort): DeadlineTimer {
    try {
      return this.#arm(call);
    } catch {
      return new DeadlineTimer(call, this.timeoutMs, setTimeoutIntrinsic);
    }
  }

  #arm(call: CallAbort): DeadlineTimer {
    const spare = this.#spare;
    if (spare === undefined) return new DeadlineTimer(call, this.timeoutMs);
    this.#spare = undefined;
    // The call is set once the timer runs again: a spare that fails to re-arm stops no one.
    spare.timeout.refresh().ref();
    spare.call = call;
    return spare;
  }
}

function armWaiting(timers: DeadlineTimers): void {
  timers.armWaiting();
}

function onDeadline(timer: DeadlineTimer): void {
  timer.call?.stop("timeout");
}
