import type { EventBus, EventHandler } from "@tooldock/sdk";
import { describeError } from "../diagnostics.js";
import { releaseOnce } from "../guards/release-once.js";

/** Each registration a box of its own: the remover `on` returns finds its own among equal handlers. */
type Registrations = ReadonlyArray<{ handler: EventHandler }>;

/**
 * The bus a `ToolHost` shares between its tools (`pi.events`) and itself (`host.events`).
 * Channels are plain strings; handlers run synchronously, in the order they were added, each
 * with the emitted value. A handler that throws is reported (`onHandlerError`) and the others
 * still run: an emit never throws, so a tool's emit cannot fail because of another's handler.
 * A handler added or removed during an emit takes effect from the next emit. A handler added
 * twice runs twice; each removal takes off one registration, as pi's bus and Node's
 * `EventEmitter` do: the function `on` returned its own, `off` the latest.
 */
export function createEventBus(onHandlerError: (channel: string, error: unknown) => void): EventBus {
  const channels = new Map<string, Registrations>();
  // Each change makes a new array: an emit in progress goes on with the one it started with.
  const change = (key: string, next: (registrations: Registrations) => Registrations) => {
    const kept = next(channels.get(key) ?? []);
    if (kept.length === 0) channels.delete(key);
    else channels.set(key, kept);
  };
  const without = (registrations: Registrations, index: number) =>
    index === -1 ? registrations : registrations.toSpliced(index, 1);
  return Object.freeze({
    on(channel: string, handler: EventHandler): () => void {
      if (typeof handler !== "function") return () => {};
      const key = String(channel);
      const registration = { handler };
      change(key, (registrations) => [...registrations, registration]);
      return releaseOnce(() =>
        change(key, (registrations) => without(registrations, registrations.indexOf(registration))),
      );
    },
    off(channel: string, handler: EventHandler): void {
      change(String(channel), (registrations) =>
        without(
          registrations,
          registrations.findLastIndex((registration) => registration.handler === handler),
        ),
      );
    },
    emit(channel: string, data?: unknown): void {
      const key = String(channel);
      for (const { handler } of channels.get(key) ?? []) {
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
