import type { CallAbort } from "./call-abort.js";

/** A call's place in {@link InFlightCalls}; give it back to `delete`. */
export interface InFlightEntry {
  readonly call: CallAbort;
  previous: InFlightEntry | undefined;
  next: InFlightEntry | undefined;
}

/**
 * The calls of one session that are running. `close()` (from `dispose()`) stops them all and
 * makes the session refuse new ones. A linked list rather than a `Set`: a sequential host
 * adds and removes one call at a time, which makes a `Set` reallocate its table every call;
 * and no call needs a listener on a shared signal.
 */
export class InFlightCalls {
  #first: InFlightEntry | undefined;
  #closed = false;

  /** True once `close()` ran: no call may start. */
  get closed(): boolean {
    return this.#closed;
  }

  add(call: CallAbort): InFlightEntry {
    const entry: InFlightEntry = { call, previous: undefined, next: this.#first };
    if (this.#first !== undefined) this.#first.previous = entry;
    this.#first = entry;
    return entry;
  }

  /** Removes an entry `add` returned; removing it twice does nothing. */
  delete(entry: InFlightEntry): void {
    const { previous, next } = entry;
    if (previous === undefined && this.#first !== entry) return;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next !== undefined) next.previous = previous;
    entry.previous = undefined;
    entry.next = undefined;
  }

  /** Stops every call in flight (each answers that the session was disposed). Idempotent. */
  close(): void {
    this.#closed = true;
    while (this.#first !== undefined) {
      const entry = this.#first;
      entry.call.stop("disposed");
      this.delete(entry); // stop() has removed it already; this only guards the loop
    }
  }
}
