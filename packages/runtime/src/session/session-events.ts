import type { AgentToolResult, CustomToolSessionEvent } from "@tooldock/sdk";
import type { PendingActionEvent, PendingActionRecord } from "../pending/pending-action-record.js";
import type { ToolCallFaultEvent } from "./execute/tool-call-fault.js";

/**
 * What {@link Session.subscribe} listeners receive: the session's own events and every event
 * of its pending store, forwarded.
 *
 * - `tool-call-start` / `tool-call-end`: around every `execute`, whatever the outcome.
 * - `reminder`: on every push, `text` for the host to inject into the conversation.
 * - `tool-hook-failed`: a tool's `onSession` threw; the session carried on.
 * - `tool-call-fault`: a fault the session contained without changing a call's result (a
 *   late settle, a refused late push, dropped details or updates, a failing `onUpdate`).
 */
export type SessionEvent =
  | { type: "tool-call-start"; toolCallId: string; name: string; params: unknown }
  | { type: "tool-call-end"; toolCallId: string; name: string; result: AgentToolResult }
  | { type: "reminder"; text: string; record: PendingActionRecord }
  | { type: "tool-hook-failed"; toolName: string; event: CustomToolSessionEvent; error: unknown }
  | ToolCallFaultEvent
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

  /** True when anyone listens: the session builds no event nobody would receive. */
  get hasListeners(): boolean {
    return this.#listeners.size > 0;
  }

  /** Never throws: a listener that throws or rejects, and even a throwing `onListenerError`, are contained. */
  emit(event: SessionEvent): void {
    if (this.#listeners.size === 0) return;
    for (const listener of [...this.#listeners]) {
      try {
        const returned: unknown = listener(event);
        if (typeof returned === "object" && returned !== null)
          Promise.resolve(returned).then(undefined, (error: unknown) => this.#listenerFailed(error, event));
      } catch (error) {
        this.#listenerFailed(error, event);
      }
    }
  }

  #listenerFailed(error: unknown, event: SessionEvent): void {
    try {
      this.#onListenerError(error, event);
    } catch {
      // The host's own error handler failed; there is nobody left to tell.
    }
  }
}
