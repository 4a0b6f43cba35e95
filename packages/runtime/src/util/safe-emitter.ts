/**
 * A listener set whose members cannot break each other or their owner: a listener that
 * throws or rejects, and even a throwing `onListenerError`, are contained. Shared by the
 * pending store and the session.
 */
export class SafeEmitter<TEvent> {
  /** One box per subscription: its remover ends that one, never a later one of the same listener. */
  readonly #subscriptions = new Set<{ listener: (event: TEvent) => void }>();
  readonly #onListenerError: (error: unknown, event: TEvent) => void;

  constructor(onListenerError: (error: unknown, event: TEvent) => void) {
    this.#onListenerError = onListenerError;
  }

  /**
   * Adds a listener; returns the function that removes this subscription (a listener
   * subscribed twice is called twice, until both are removed).
   */
  subscribe(listener: (event: TEvent) => void): () => void {
    const subscription = { listener };
    this.#subscriptions.add(subscription);
    return () => {
      this.#subscriptions.delete(subscription);
    };
  }

  /** True when anyone listens: owners build no event nobody would receive. */
  get hasListeners(): boolean {
    return this.#subscriptions.size > 0;
  }

  /** Never throws. */
  emit(event: TEvent): void {
    if (this.#subscriptions.size === 0) return;
    for (const { listener } of [...this.#subscriptions]) {
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
