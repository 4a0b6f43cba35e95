import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { contentOf, detailsOf, type ResolveDetails, resolveDetails } from "./resolve-details.js";
import { appliedText, applyFailedAfterClearText, applyFailedText } from "./resolve-messages.js";
import type { PendingEntry, StoreInternals } from "./store-internals.js";

/**
 * Runs `apply(reason)` of an entry already taken off the stack. On success the action is
 * gone; when `apply` throws (or returns an `isError` result) the same entry goes back on
 * top, unless the store was cleared meanwhile.
 */
export async function applyTopAction(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
): Promise<AgentToolResult<ResolveDetails>> {
  const { record, action } = entry;
  const clearCountAtStart = internals.clearCount;
  let result: AgentToolResult | undefined;
  try {
    result = await action.apply(reason);
    if (result?.isError === true) throw new Error(textOf(result) ?? "apply returned an error result");
  } catch (error) {
    const describedError = describeError(error);
    if (internals.clearCount !== clearCountAtStart) {
      internals.emit({ type: "action-discarded", record, reason: "cleared while applying", error });
      return failure(applyFailedAfterClearText(record, error), reason, entry, describedError);
    }
    internals.restore(entry);
    internals.emit({ type: "action-apply-failed", record, error });
    return failure(applyFailedText(record, error), reason, entry, describedError);
  }
  const applied: AgentToolResult<ResolveDetails> = {
    content: contentOf(result) ?? [{ type: "text", text: appliedText(record) }],
    details: resolveDetails("apply", reason, record, detailsOf(result)),
  };
  internals.emit({ type: "action-applied", record, result: applied });
  return applied;
}

function failure(
  text: string,
  reason: string,
  entry: PendingEntry,
  error: string,
): AgentToolResult<ResolveDetails> {
  return {
    content: [{ type: "text", text }],
    details: resolveDetails("apply", reason, entry.record, undefined, { error }),
    isError: true,
  };
}

function textOf(result: AgentToolResult): string | undefined {
  const text = contentOf(result)
    ?.flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
  return text === "" ? undefined : text;
}
