import type { PendingActionStore } from "../../pending/pending-action-store.js";
import { RESOLVE_TOOL_NAME } from "../../pending/resolve-tool.js";
import type { PendingPolicy } from "../session-options.js";
import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** Under `"block"`, any tool but `resolve` is refused while an action is pending. */
export function checkPendingPolicy(
  policy: PendingPolicy,
  pending: PendingActionStore,
  name: string,
): StepOutcome<void> {
  if (policy === "allow" || name === RESOLVE_TOOL_NAME || !pending.hasPending)
    return { ok: true, value: undefined };
  return failed(toolCallMessages.blockedByPending(name, pending.list()));
}
