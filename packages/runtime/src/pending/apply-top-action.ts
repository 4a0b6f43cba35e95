import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import {
  type ResolveDetails,
  type ResolveExtra,
  readCallbackResult,
  resolveDetails,
} from "./resolve-details.js";
import {
  appliedText,
  applyFailedAfterClearText,
  applyFailedText,
  applyTimedOutAfterClearText,
  applyTimedOutText,
} from "./resolve-messages.js";
import { actionTimeoutError, runActionCallback } from "./run-action-callback.js";
import { callApply } from "./snapshot-pending-action.js";
import type { PendingEntry, StoreInternals } from "./store-internals.js";

/**
 * Runs `apply(reason)` of an entry already taken off the stack, for at most `timeoutMs`. On
 * success the action is gone; when `apply` throws, returns an `isError` result or does not
 * settle in time, the same entry goes back on top (unless the store was cleared meanwhile)
 * and the caller's lock can be released: this never waits past the deadline.
 */
export async function applyTopAction(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
  timeoutMs: number,
): Promise<AgentToolResult<ResolveDetails>> {
  const { record, action } = entry;
  const clearCountAtStart = internals.clearCount;
  const settlement = await runActionCallback(
    (event) => internals.emit(event),
    record,
    "apply",
    () => callApply(action, reason),
    timeoutMs,
  );
  const cleared = internals.clearCount !== clearCountAtStart;
  if (settlement.status === "timed-out") {
    const error = actionTimeoutError(record, "apply", timeoutMs);
    const extra = { error: describeError(error), timedOut: true };
    if (cleared) {
      internals.emit({
        type: "action-discarded",
        record,
        reason: "cleared while applying",
        error,
        timedOut: true,
      });
      return failure(applyTimedOutAfterClearText(record, timeoutMs), reason, entry, extra);
    }
    internals.restore(entry);
    internals.emit({ type: "action-apply-failed", record, error, timedOut: true });
    return failure(applyTimedOutText(record, timeoutMs), reason, entry, extra);
  }
  const result = settlement.status === "fulfilled" ? readCallbackResult(settlement.value) : undefined;
  if (result === undefined || result.isError) {
    const error =
      settlement.status === "rejected"
        ? settlement.reason
        : new Error(result?.text ?? "apply returned an error result");
    const extra = { error: describeError(error) };
    if (cleared) {
      internals.emit({ type: "action-discarded", record, reason: "cleared while applying", error });
      return failure(applyFailedAfterClearText(record, error), reason, entry, extra);
    }
    internals.restore(entry);
    internals.emit({ type: "action-apply-failed", record, error });
    return failure(applyFailedText(record, error), reason, entry, extra);
  }
  const applied: AgentToolResult<ResolveDetails> = {
    content: result.content ?? [{ type: "text", text: appliedText(record) }],
    details: resolveDetails("apply", reason, record, result.details),
  };
  internals.emit({ type: "action-applied", record, result: applied });
  return applied;
}

function failure(
  text: string,
  reason: string,
  entry: PendingEntry,
  extra: ResolveExtra,
): AgentToolResult<ResolveDetails> {
  return {
    content: [{ type: "text", text }],
    details: resolveDetails("apply", reason, entry.record, undefined, extra),
    isError: true,
  };
}
