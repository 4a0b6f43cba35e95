import type { CustomToolContext, CustomToolPendingAction } from "@tooldock/sdk";
import { assertPendingAction } from "../pending/assert-pending-action.js";
import type { PendingActionRecord } from "../pending/pending-action-record.js";
import type { PendingActionStore } from "../pending/pending-action-store.js";

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

/** The context of one `execute` call; `abort` fires the call's own controller. */
export function createToolContext(
  source: ToolContextSource,
  call: { toolCallId: string; toolName: string; controller: AbortController },
): SessionToolContext {
  return {
    sessionId: source.sessionId,
    cwd: source.cwd,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    hasPendingActions: () => source.pending.hasPending,
    abort: () => call.controller.abort(new Error(`The tool "${call.toolName}" aborted its own call.`)),
    pushPendingAction: (action) => source.pending.push(withSourceToolName(action, call.toolName)),
  };
}

/**
 * The action as is when it names its source; otherwise a view of it naming `toolName`. The
 * view delegates to the original, so actions that are class instances keep their methods.
 */
function withSourceToolName(action: CustomToolPendingAction, toolName: string): CustomToolPendingAction {
  assertPendingAction(action);
  if (action.sourceToolName !== undefined) return action;
  const reject = action.reject;
  return {
    label: action.label,
    details: action.details,
    sourceToolName: toolName,
    apply: (reason) => action.apply(reason),
    ...(reject === undefined ? {} : { reject: (reason: string) => reject.call(action, reason) }),
  };
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
