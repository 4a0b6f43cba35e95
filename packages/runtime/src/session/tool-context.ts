import {
  type CustomToolContext,
  type CustomToolDurableAction,
  type CustomToolPendingAction,
  TooldockError,
  type ToolSessionManager,
} from "@tooldock/sdk";
import type { PendingActionRecord } from "../pending/pending-action-record.js";
import type { PendingActionStore } from "../pending/pending-action-store.js";
import type { ConversationView } from "./conversation-source.js";
import type { CallAbort } from "./execute/call-abort.js";
import { quotedLabel, type ToolCallScope } from "./execute/tool-call-scope.js";

/**
 * The context a `Session` passes to `execute`: the SDK's `CustomToolContext`, with the call's
 * id and tool name, and a `pushPendingAction` that returns the record. Tools loaded from
 * modules may use `pi.pushPendingAction` instead, which reaches the same store during a call.
 */
export interface SessionToolContext extends CustomToolContext {
  /** The id of the call being run. */
  toolCallId: string;
  /** The name of the tool being run. */
  toolName: string;
  /**
   * Pushes onto `session.pending` and returns the record. `sourceToolName` defaults to the
   * calling tool's name (the bare store's default is `"custom_tool"`).
   */
  pushPendingAction(action: CustomToolPendingAction | CustomToolDurableAction): PendingActionRecord;
}

/** What the context of one call is built from. */
export interface ToolContextSource {
  sessionId: string;
  cwd: string;
  pending: PendingActionStore;
  /** The host's conversation (entries, model, idle state), read when a tool asks. */
  conversation: ConversationView;
  /** `ctx.sessionManager`, made once per session (see `createSessionManager`). */
  sessionManager: ToolSessionManager;
  /** `ctx.hasPendingActions`, made once per session: whether `pending` holds anything. */
  hasPendingActions: () => boolean;
}

/**
 * The context of one `execute` call; `abort` stops the call (and aborts the tool's signal,
 * when it has one), answering that the tool aborted its own call. `pushPendingAction` stages
 * through the call's scope: once the call has ended it throws `E_CALL_ENDED` (the model never
 * saw a preview of such an action, so it must not be staged). `model` is the host's model
 * when the call starts, as pi's contexts carried it.
 *
 * A plain object of data properties: one is made per call, and a getter in it (or
 * `Object.defineProperties`, or a class instance with the same members) made every
 * `session.execute` 2–3 µs slower on Node 20 (measured A/B in one process).
 */
export function createToolContext(
  source: ToolContextSource,
  scope: ToolCallScope,
  abort: Pick<CallAbort, "stop">,
): SessionToolContext {
  const { toolCallId, toolName } = scope;
  const { conversation } = source;
  return {
    sessionId: source.sessionId,
    cwd: source.cwd,
    toolCallId,
    toolName,
    hasPendingActions: source.hasPendingActions,
    abort: () => abort.stop("aborted", new Error(`The tool "${toolName}" aborted its own call.`)),
    pushPendingAction: (action) => scope.push(action, toolName),
    // The session's own functions, made once per session.
    sessionManager: source.sessionManager,
    model: conversation.model(),
    isIdle: conversation.isIdle,
    hasQueuedMessages: conversation.hasQueuedMessages,
  };
}

/** The error a push from an `onSession` hook gets: no call is running. */
export function noCallPushError(action: unknown): TooldockError {
  return new TooldockError(
    "E_NO_CALL",
    `Cannot stage the pending action ${quotedLabel(action)} from an onSession hook: no tool ` +
      "call is running, so the model would never see a preview of it. " +
      "Stage pending actions inside a tool's execute.",
  );
}

/** The context `onSession` hooks get: there is no call to abort, so `abort` does nothing. */
export function createLifecycleContext(source: ToolContextSource): CustomToolContext {
  const ctx: CustomToolContext = {
    sessionId: source.sessionId,
    cwd: source.cwd,
    hasPendingActions: source.hasPendingActions,
    abort: () => {},
    pushPendingAction: (action) => {
      throw noCallPushError(action);
    },
    // What pi's tools read on their context: the session's own functions (made once per
    // session), and the model as a getter, read from the host when asked.
    sessionManager: source.sessionManager,
    get model() {
      return source.conversation.model();
    },
    isIdle: source.conversation.isIdle,
    hasQueuedMessages: source.conversation.hasQueuedMessages,
  };
  return ctx;
}
