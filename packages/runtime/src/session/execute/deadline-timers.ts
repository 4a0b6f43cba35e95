import type { CallAbort } from "./call-abort.js";

/** A timer that stops `call` when it fires; `call` is cleared when the call ends first. */
export class DeadlineTimer {
  call: CallAbort | undefined;
  readonly timeout: ReturnType<typeof setTimeout>;

  constructor(call: CallAbort, timeoutMs: number) {
    this.call = call;
    this.timeout = setTimeout(onDeadline, timeoutMs, this);
  }
}

/**
 * The deadline timers of one session's calls: each call gets a timer that stops it
 * (`"timeout"`) `timeoutMs` after it started, as `setTimeout` counts time (so fake timers in
 * a host's tests drive it).
 *
 * A call that ends first does not always clear its timer: one is kept, unreferenced (it never
 * keeps the process alive), and the next call re-arms it with `refresh()`. A host that runs
 * one call after another thus reuses a single timer, and Node's list of timers of that
 * duration never empties; creating and clearing a timer per call (a new list and a new
 * libuv timer each time) was the largest cost of a call left after the abort signal.
 */
export class DeadlineTimers {
  /** `Infinity`: no deadline, no timer. */
  readonly timeoutMs: number;
  #spare: DeadlineTimer | undefined;
  #closed = false;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Arms the timer of a call that starts now; undefined when there is no deadline. */
  start(call: CallAbort): DeadlineTimer | undefined {
    if (!Number.isFinite(this.timeoutMs)) return undefined;
    const spare = this.#spare;
    if (spare !== undefined) {
      this.#spare = undefined;
      spare.call = call;
      spare.timeout.refresh().ref();
      return spare;
    }
    return new DeadlineTimer(call, this.timeoutMs);
  }

  /** The call ended: its timer will not stop it; kept for the next call or cleared. */
  release(timer: DeadlineTimer): void {
    timer.call = undefined;
    if (this.#spare === undefined && !this.#closed) {
      timer.timeout.unref();
      this.#spare = timer;
    } else {
      clearTimeout(timer.timeout);
    }
  }

  /** Clears the kept timer; later calls' timers are cleared when they end. */
  close(): void {
    this.#closed = true;
    if (this.#spare !== undefined) clearTimeout(this.#spare.timeout);
    this.#spare = undefined;
  }
}

function onDeadline(timer: DeadlineTimer): void {
  timer.call?.stop("timeout");
}
