import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import type { Settlement } from "./callback-deadline.js";
import type { PendingActionEvent } from "./pending-action-record.js";
import { type ResolveDetails, readCallbackResult, resolveDetails } from "./resolve-details.js";
import { discardedText, rejectFailedText, rejectTimedOutText } from "./resolve-messages.js";
import { actionTimeoutError, runActionCallback } from "./run-action-callback.js";
import { callReject } from "./snapshot-pending-action.js";
import type { PendingEntry, StoreInternals } from "./store-internals.js";

/**
 * Discards an entry already taken off the stack: runs `reject(reason)` when present, for at
 * most `timeoutMs`, then emits `action-discarded`, with the error when `reject` threw or
 * rejected, and with an `E_CALLBACK_TIMEOUT` error and `timedOut: true` when it did not
 * settle in time. Never rejects. Used by the `resolve` tool and by `clear`.
 */
export async function discardEntry(
  emit: (event: PendingActionEvent) => void,
  entry: PendingEntry,
  reason: string,
  timeoutMs: number,
): Promise<Settlement<unknown>> {
  const { record, action } = entry;
  const settlement = await runActionCallback(
    emit,
    record,
    "reject",
    () => callReject(action, reason),
    timeoutMs,
  );
  if (settlement.status === "timed-out") {
    const error = actionTimeoutError(record, "reject", timeoutMs);
    emit({ type: "action-discarded", record, reason, error, timedOut: true });
  } else if (settlement.status === "rejected") {
    emit({ type: "action-discarded", record, reason, error: settlement.reason });
  } else {
    emit({ type: "action-discarded", record, reason });
  }
  return settlement;
}

/**
 * Discards an entry already taken off the stack (see {@link discardEntry}) and uses the
 * result of `reject` when it returns one. A throwing `reject`, or one that does not settle in
 * time, still discards; the result reports it.
 */
export async function discardTopAction(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
  timeoutMs: number,
): Promise<AgentToolResult<ResolveDetails>> {
  const { record } = entry;
  const settlement = await discardEntry((event) => internals.emit(event), entry, reason, timeoutMs);
  if (settlement.status === "timed-out") {
    const error = actionTimeoutError(record, "reject", timeoutMs);
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
    return {
      content: [{ type: "text", text: rejectFailedText(record, reason, error) }],
      details: resolveDetails("discard", reason, record, undefined, { error: describeError(error) }),
      isError: true,
    };
  }
  const result = readCallbackResult(settlement.value);
  const discarded: AgentToolResult<ResolveDetails> = {
    content: result.content ?? [{ type: "text", text: discardedText(record, reason) }],
    details: resolveDetails("discard", reason, record, result.details),
  };
  if (result.isError) discarded.isError = true;
  return discarded;
}
