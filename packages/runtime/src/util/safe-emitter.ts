/**
 * A listener set whose members cannot break each other or their owner: a listener that
 * throws or rejects, and even a throwing `onListenerError`, are contained. Shared by the
 * pending store and the session.
 */
export class SafeEmitter<TEvent> {
  /** Each listener and its subscription's token: a remover ends its own, never a later one. */
  readonly #subscriptions = new Map<(event: TEvent) => void, object>();
  readonly #onListenerError: (error: unknown, event: TEvent) => void;

  constructor(onListenerError: (error: unknown, event: TEvent) => void) {
    this.#onListenerError = onListenerError;
  }

  /**
   * Adds a listener; returns the function that removes it. A listener added again while it
   * listens is one subscription (called once; either remover ends it). A remover called after
   * its listener was added anew leaves the new subscription alone.
   */
  subscribe(listener: (event: TEvent) => void): () => void {
    let token = this.#subscriptions.get(listener);
    if (token === undefined) {
      token = {};
      this.#subscriptions.set(listener, token);
    }
    return () => {
      if (this.#subscriptions.get(listener) === token) this.#subscriptions.delete(listener);
    };
  }

  /** True when anyone listens: owners build no event nobody would receive. */
  get hasListeners(): boolean {
    return this.#subscriptions.size > 0;
  }

  /** Never throws. */
  emit(event: TEvent): void {
    if (this.#subscriptions.size === 0) return;
    for (const listener of [...this.#subscriptions.keys()]) {
      try {
        // A listener typed as returning void may still be async; its rejection is reported too.
        const returned: unknown = listener(event);
        if (typeof returned === "object" && returned !== null)
          Promise.resolve(returned).then(undefined, (error: unknown) => this.#listenerFailed(error, event));
      } catch (error) {
        this.#listenerFailed(error, event);
      }
    }
  }

  #listenerFailed(error: unknown, event: TEvent): void {
    try {
      this.#onListenerError(error, event);
    } catch {
      // The host's own error handler failed; there is nobody left to tell.
    }
  }
}
