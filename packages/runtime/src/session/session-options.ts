import type { PendingActionStore } from "../pending/pending-action-store.js";
import type { SessionEvent } from "./session-events.js";
import type { ToolChoice } from "./tool-choice.js";

/**
 * What a session does when the model calls another tool while an action is pending:
 * `"block"` answers with an error that says to call `resolve` first; `"allow"` runs it.
 */
export type PendingPolicy = "block" | "allow";

/** Options of {@link Session}. Every one has a default. */
export interface SessionOptions {
  /** Working directory tools see as `ctx.cwd`. Default `process.cwd()`. */
  cwd?: string;
  /** Default: a random UUID. */
  sessionId?: string;
  /** The host's tool choice while nothing is pending. Default `"auto"`. */
  toolChoice?: ToolChoice;
  /** Default `"block"`. */
  pendingPolicy?: PendingPolicy;
  /** The pending stack. Default: a new `PendingActionStore` with default options. */
  pending?: PendingActionStore;
  /** Called when a session listener throws; the session carries on. Default: ignored. */
  onListenerError?: (error: unknown, event: SessionEvent) => void;
}

/** {@link SessionOptions} with every default filled in, read once by the session. */
export interface SessionConfig {
  cwd: string;
  sessionId: string;
  toolChoice: ToolChoice;
  pendingPolicy: PendingPolicy;
  onListenerError: (error: unknown, event: SessionEvent) => void;
}

/** Fills in the defaults of {@link SessionOptions}. */
export function resolveSessionOptions(options: SessionOptions): SessionConfig {
  return {
    cwd: options.cwd ?? process.cwd(),
    sessionId: options.sessionId ?? globalThis.crypto.randomUUID(),
    toolChoice: options.toolChoice ?? "auto",
    pendingPolicy: options.pendingPolicy ?? "block",
    onListenerError: options.onListenerError ?? (() => {}),
  };
}
