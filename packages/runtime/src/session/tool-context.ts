import { type CustomToolContext, type CustomToolPendingAction, TooldockError } from "@tooldock/sdk";
import type { PendingActionRecord } from "../pending/pending-action-record.js";
import type { PendingActionStore } from "../pending/pending-action-store.js";
import type { CallAbort } from "./execute/call-abort.js";

/**
 * The context a `Session` passes to `execute`: the SDK's `CustomToolContext` plus a way to
 * stage a pending action on this session's stack. Built-ins such as `ast_edit` use it; tools
 * loaded from modules use `pi.pushPendingAction`, which reaches the same store.
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
  pushPendingAction(action: CustomToolPendingAction): PendingActionRecord;
}

/** What the context of one call is built from. */
export interface ToolContextSource {
  sessionId: string;
  cwd: string;
  pending: PendingActionStore;
}

/** What one call's context needs to know about the call. */
export interface ToolCallScope {
  toolCallId: string;
  toolName: string;
  /**
   * `ended` is true once `execute` has answered (or is answering: the call was aborted or
   * timed out); `stop` ends the call.
   */
  abort: Pick<CallAbort, "ended" | "stop">;
  /** Told about a push refused because the call had ended. */
  onLatePush(error: TooldockError): void;
}

/**
 * The context of one `execute` call; `abort` stops the call (and aborts the tool's signal,
 * when it has one), answering that the tool aborted its own call. Once the call
 * has ended, `pushPendingAction` throws `E_CALL_ENDED`: the model never saw a preview of
 * such an action, so it must not be staged.
 */
export function createToolContext(source: ToolContextSource, call: ToolCallScope): SessionToolContext {
  return {
    sessionId: source.sessionId,
    cwd: source.cwd,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    hasPendingActions: () => source.pending.hasPending,
    abort: () => call.abort.stop("aborted", new Error(`The tool "${call.toolName}" aborted its own call.`)),
    pushPendingAction: (action) => {
      if (call.abort.ended) {
        const error = latePushError(call, action);
        call.onLatePush(error);
        throw error;
      }
      return source.pending.push(action, { sourceToolName: call.toolName });
    },
  };
}

function latePushError(call: ToolCallScope, action: unknown): TooldockError {
  return new TooldockError(
    "E_CALL_ENDED",
    `Tool "${call.toolName}" cannot stage the pending action ${quotedLabel(action)}: its call ` +
      `${call.toolCallId} has already ended, so the model would never see a preview of it. ` +
      "Stage pending actions before execute returns.",
  );
}

function quotedLabel(action: unknown): string {
  try {
    const label = (action as { label?: unknown }).label;
    return typeof label === "string" ? `"${label}"` : "(no label)";
  } catch {
    return "(unreadable label)";
  }
}

/** The context `onSession` hooks get: there is no call to abort, so `abort` does nothing. */
export function createLifecycleContext(source: ToolContextSource): CustomToolContext {
  return {
    sessionId: source.sessionId,
    cwd: source.cwd,
    hasPendingActions: () => source.pending.hasPending,
    abort: () => {},
  };
}
