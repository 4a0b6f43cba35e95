import type { ToolModel, ToolSessionManager } from "./conversation.js";
import type { CustomToolDurableAction, CustomToolPendingAction } from "./pending-action.js";

/** What a tool sees of the session that runs it, on each call. */
export interface CustomToolContext {
  /** The id of the session running the tool. */
  sessionId: string;
  /** The session's working directory. */
  cwd: string;
  /** True while the session has at least one pending action. */
  hasPendingActions(): boolean;
  /** Aborts the current call: the `signal` passed to `execute` fires. */
  abort(): void;
  /**
   * Stages a pending action on the stack of the session running this call, whatever other
   * sessions share the host. Throws a `TooldockError` `E_CALL_ENDED` once the call has ended
   * (the model would never see its preview); in an `onSession` hook it throws `E_NO_CALL`.
   * A {@link CustomToolDurableAction} names a handler of this tool's `actions`.
   */
  pushPendingAction(action: CustomToolPendingAction | CustomToolDurableAction): void;
  /**
   * The conversation so far, read-only (pi's `ctx.sessionManager`). A runtime `Session`
   * always provides it (empty unless its host supplies the conversation); optional because
   * other hosts may not.
   */
  sessionManager?: ToolSessionManager;
  /** The model the host is talking to, when it says; `undefined` in the CLI. */
  model?: ToolModel;
  /** Whether the agent is idle: no tool call of the session is running (so `false` inside `execute`). */
  isIdle?(): boolean;
  /** Whether the user has queued messages the agent has not read yet; `false` in the CLI. */
  hasQueuedMessages?(): boolean;
}
