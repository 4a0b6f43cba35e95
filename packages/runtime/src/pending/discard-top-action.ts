import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { type ResolveDetails, readCallbackResult, resolveDetails } from "./resolve-details.js";
import { discardedText, rejectFailedText, rejectTimedOutText } from "./resolve-messages.js";
import { actionTimeoutError, runActionCallback } from "./run-action-callback.js";
import { callReject } from "./snapshot-pending-action.js";
import type { PendingEntry, StoreInternals } from "./store-internals.js";

/**
 * Discards an entry already taken off the stack: runs `reject(reason)` when present, for at
 * most `timeoutMs`, and uses its result when it returns one. A throwing `reject`, or one that
 * does not settle in time, still discards; the result reports it.
 */
export async function discardTopAction(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
  timeoutMs: number,
): Promise<AgentToolResult<ResolveDetails>> {
  const { record, action } = entry;
  const settlement = await runActionCallback(
    (event) => internals.emit(event),
    record,
    "reject",
    () => callReject(action, reason),
    timeoutMs,
  );
  if (settlement.status === "timed-out") {
    const error = actionTimeoutError(record, "reject", timeoutMs);
    internals.emit({ type: "action-discarded", record, reason, error, timedOut: true });
    return {
      content: [{ type: "text", text: rejectTimedOutText(record, reason, timeoutMs) }],
      details: resolveDetails("discard", reason, record, undefined, {
        error: describeError(error),
        timedOut: true,
      }),
      isError: true,
    };
  }
  if (settlement.status === "rejected") {
    const error = settlement.reason;
    internals.emit({ type: "action-discarded", record, reason, error });
    return {
      content: [{ type: "text", text: rejectFailedText(record, reason, error) }],
      details: resolveDetails("discard", reason, record, undefined, { error: describeError(error) }),
      isError: true,
    };
  }
  internals.emit({ type: "action-discarded", record, reason });
  const result = readCallbackResult(settlement.value);
  const discarded: AgentToolResult<ResolveDetails> = {
    content: result.content ?? [{ type: "text", text: discardedText(record, reason) }],
    details: resolveDetails("discard", reason, record, result.details),
  };
  if (result.isError) discarded.isError = true;
  return discarded;
}
