import type { PendingActionStore } from "../../pending/pending-action-store.js";
import { RESOLVE_TOOL_NAME } from "../../pending/resolve-tool.js";
import type { PendingPolicy } from "../session-options.js";
import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** The outcome of a call the policy lets through: one object, not one per call. */
const PASS: StepOutcome<void> = Object.freeze({ ok: true, value: undefined });

/** Under `"block"`, any tool but `resolve` is refused while an action is pending. */
export function checkPendingPolicy(
  policy: PendingPolicy,
  pending: PendingActionStore,
  name: string,
): StepOutcome<void> {
  if (policy === "allow" || name === RESOLVE_TOOL_NAME || !pending.hasPending) return PASS;
  return failed(toolCallMessages.blockedByPending(name, pending.list()));
}
