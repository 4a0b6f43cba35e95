import type { ServerResponse } from "node:http";

/**
 * The MCP sessions of an HTTP server by id, each expired after `idleTimeoutMs` without a
 * connection: a session is idle while no request of it is in flight and no stream of it (the
 * client's `GET` event stream, a `POST`'s response stream) is open. A client that went away
 * without ending its session (`DELETE`) is thus forgotten `idleTimeoutMs` after its last
 * connection closed; one that keeps its event stream open never is.
 */
export class HttpSessionTable<T> {
  readonly #entries = new Map<string, { value: T; open: number; timer?: NodeJS.Timeout }>();
  readonly #idleTimeoutMs: number;
  readonly #onIdle: (id: string, value: T) => void;

  /** `onIdle` is told once a session expired; it is already out of the table then. */
  constructor(idleTimeoutMs: number, onIdle: (id: string, value: T) => void) {
    this.#idleTimeoutMs = idleTimeoutMs;
    this.#onIdle = onIdle;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#entries.size;
  }

  /** Adds a session; its idle time starts now unless a connection is held. */
  add(id: string, value: T): void {
    const entry = { value, open: 0 };
    this.#entries.set(id, entry);
    this.#arm(id);
  }

  /** The session with this id, if it is open. */
  get(id: string): T | undefined {
    return this.#entries.get(id)?.value;
  }

  /** Every open session. */
  values(): T[] {
    return [...this.#entries.values()].map((entry) => entry.value);
  }

  /** Counts `response` as a connection of the session until it closes (the session is not idle meanwhile). */
  hold(id: string, response: ServerResponse): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    entry.open += 1;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    response.once("close", () => {
      entry.open -= 1;
      if (entry.open === 0 && this.#entries.get(id) === entry) this.#arm(id);
    });
  }

  /** Takes a session out of the table (no `onIdle`); returns it when it was there. */
  delete(id: string): T | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    this.#entries.delete(id);
    return entry.value;
  }

  /** Takes every session out of the table, returning them. */
  deleteAll(): T[] {
    return [...this.#entries.keys()].flatMap((id) => {
      const value = this.delete(id);
      return value === undefined ? [] : [value];
    });
  }

  #arm(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined || entry.open > 0) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.#entries.get(id) !== entry || entry.open > 0) return;
      this.#entries.delete(id);
      this.#onIdle(id, entry.value);
    }, this.#idleTimeoutMs);
    entry.timer.unref();
  }
}
