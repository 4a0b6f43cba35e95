/**
 * A call's place in {@link InFlightCalls}: the call itself (`CallAbort` is one), so a call
 * costs no separate entry object. Give it to `add`, then to `delete`.
 */
export interface InFlightEntry {
  /** The name of the tool the call runs (see {@link InFlightCalls.ended}). */
  readonly name: string;
  previous: InFlightEntry | undefined;
  next: InFlightEntry | undefined;
  /** Called when the call ends; set only when someone waits for it (`ended`). */
  onEnd: (() => void) | undefined;
  /** Stops the call because the session was disposed (it then calls `delete`). */
  stop(cause: "disposed"): void;
}

/**
 * The calls of one session that are running: the one record of them. `close()` (from
 * `dispose()`) stops them all and makes the session refuse new ones; `size` is how many run
 * (the default of `ctx.isIdle()`); `ended(name)` is what `unregister` waits for before it
 * sends `shutdown`. A linked list rather than a `Set`, and no per-name index: a sequential
 * host adds and removes one call at a time, which makes a `Set` (or a map of sets) reallocate
 * every call; only `ended` walks the list, and only when a tool is unregistered.
 */
export class InFlightCalls {
  #first: InFlightEntry | undefined;
  #size = 0;
  #closed = false;

  /** True once `close()` ran: no call may start. */
  get closed(): boolean {
    return this.#closed;
  }

  /** How many calls are running now. */
  get size(): number {
    return this.#size;
  }

  /** Adds a call that starts now (its `previous`, `next` and `onEnd` are undefined). */
  add(entry: InFlightEntry): void {
    entry.next = this.#first;
    if (this.#first !== undefined) this.#first.previous = entry;
    this.#first = entry;
    this.#size++;
  }

  /** Removes an entry `add` returned and tells whoever waits for it; removing it twice does nothing. */
  delete(entry: InFlightEntry): void {
    const { previous, next } = entry;
    if (previous === undefined && this.#first !== entry) return;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next !== undefined) next.previous = previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.#size--;
    const onEnd = entry.onEnd;
    if (onEnd !== undefined) {
      entry.onEnd = undefined;
      onEnd();
    }
  }

  /**
   * Settles once every call of the tool `name` running now has ended (calls started later are
   * not waited for); `undefined` when none is running.
   */
  ended(name: string): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    for (let entry = this.#first; entry !== undefined; entry = entry.next) {
      if (entry.name !== name) continue;
      const current = entry;
      waits.push(
        new Promise((resolve) => {
          const before = current.onEnd;
          current.onEnd =
            before === undefined
              ? () => resolve()
              : () => {
                  before();
                  resolve();
                };
        }),
      );
    }
    return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
  }

  /** Stops every call in flight (each answers that the session was disposed). Idempotent. */
  close(): void {
    this.#closed = true;
    while (this.#first !== undefined) {
      const entry = this.#first;
      entry.stop("disposed");
      this.delete(entry); // stop() has removed it already; this only guards the loop
    }
  }
}
