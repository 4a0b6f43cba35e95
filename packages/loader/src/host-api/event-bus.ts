import type { EventBus, EventHandler } from "@tooldock/sdk";
import { describeError } from "../diagnostics.js";
import { releaseOnce } from "../guards/release-once.js";

/**
 * The bus a `ToolHost` shares between its tools (`pi.events`) and itself (`host.events`).
 * Channels are plain strings; handlers run synchronously, in the order they were added, each
 * with the emitted value. A handler that throws is reported (`onHandlerError`) and the others
 * still run: an emit never throws, so a tool's emit cannot fail because of another's handler.
 * A handler added or removed during an emit takes effect from the next emit.
 */
export function createEventBus(onHandlerError: (channel: string, error: unknown) => void): EventBus {
  const channels = new Map<string, EventHandler[]>();
  // Each change makes a new array: an emit in progress goes on with the one it started with.
  const change = (key: string, next: (handlers: EventHandler[]) => EventHandler[]) => {
    const kept = next(channels.get(key) ?? []);
    if (kept.length === 0) channels.delete(key);
    else channels.set(key, kept);
  };
  return Object.freeze({
    on(channel: string, handler: EventHandler): () => void {
      if (typeof handler !== "function") return () => {};
      const key = String(channel);
      change(key, (handlers) => [...handlers, handler]);
      return releaseOnce(() =>
        change(key, (handlers) => {
          const index = handlers.indexOf(handler);
          return index === -1 ? handlers : handlers.toSpliced(index, 1);
        }),
      );
    },
    off(channel: string, handler: EventHandler): void {
      change(String(channel), (handlers) => handlers.filter((candidate) => candidate !== handler));
    },
    emit(channel: string, data?: unknown): void {
      const key = String(channel);
      for (const handler of channels.get(key) ?? []) {
        try {
          handler(data);
        } catch (error) {
          try {
            onHandlerError(key, error);
          } catch {
            // A reporter that fails must not turn the handler's fault into the emitter's.
          }
        }
      }
    },
  });
}

/** The message a host's logger gets about a handler that threw. */
export function handlerErrorMessage(channel: string, error: unknown): string {
  return `A handler of the event "${channel}" threw: ${describeError(error)}. The other handlers ran.`;
}
