import type { AgentToolResult, CustomToolSessionEvent } from "@tooldock/sdk";
import type { PendingActionEvent, PendingActionRecord } from "../pending/pending-action-record.js";

/**
 * What {@link Session.subscribe} listeners receive: the session's own events and every event
 * of its pending store, forwarded.
 *
 * - `tool-call-start` / `tool-call-end`: around every `execute`, whatever the outcome.
 * - `reminder`: on every push, `text` for the host to inject into the conversation.
 * - `tool-hook-failed`: a tool's `onSession` threw; the session carried on.
 */
export type SessionEvent =
  | { type: "tool-call-start"; toolCallId: string; name: string; params: unknown }
  | { type: "tool-call-end"; toolCallId: string; name: string; result: AgentToolResult }
  | { type: "reminder"; text: string; record: PendingActionRecord }
  | { type: "tool-hook-failed"; toolName: string; event: CustomToolSessionEvent; error: unknown }
  | PendingActionEvent;

/** Receives every {@link SessionEvent}. */
export type SessionListener = (event: SessionEvent) => void;

/** A listener set whose members cannot break each other or the session. */
export class SessionEmitter {
  readonly #listeners = new Set<SessionListener>();

  readonly #onListenerError: (error: unknown, event: SessionEvent) => void;

  constructor(onListenerError: (error: unknown, event: SessionEvent) => void) {
    this.#onListenerError = onListenerError;
  }

  subscribe(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(event: SessionEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error, event);
      }
    }
  }
}
