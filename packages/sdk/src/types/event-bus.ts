/** Receives what is emitted on one channel of an {@link EventBus}. */
export type EventHandler = (data: unknown) => void;

/**
 * A bus shared by every tool of a host and the host itself (pi's `pi.events`): tools emit
 * and listen on named channels (`"my-tool:done"`), and the host can subscribe too. A
 * handler that throws does not stop the others; the host is told.
 */
export interface EventBus {
  /**
   * Calls `handler` for each emit on `channel` from now on (a handler added twice runs twice);
   * returns the function that removes this registration.
   */
  on(channel: string, handler: EventHandler): () => void;
  /** Removes one registration of `handler` from `channel`, the latest (as Node's `EventEmitter.off`). */
  off(channel: string, handler: EventHandler): void;
  /** Calls every handler of `channel`, in the order they were added, with `data`. */
  emit(channel: string, data?: unknown): void;
}

/**
 * A message a tool sends to the conversation (pi's `pi.sendMessage`): `content` is the text
 * (or blocks) to show or add, `customType` names the tool's kind of message.
 */
export interface ToolMessage {
  customType?: string;
  content: unknown;
  /** Whether a host with a UI should show it. */
  display?: boolean;
  details?: unknown;
}
