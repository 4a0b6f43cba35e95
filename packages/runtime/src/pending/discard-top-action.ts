import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { contentOf, detailsOf, type ResolveDetails, resolveDetails } from "./resolve-details.js";
import { discardedText, rejectFailedText } from "./resolve-messages.js";
import type { PendingEntry, StoreInternals } from "./store-internals.js";

/**
 * Discards an entry already taken off the stack: runs `reject(reason)` when present and uses
 * its result when it returns one. A throwing `reject` still discards; the result reports it.
 */
export async function discardTopAction(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
): Promise<AgentToolResult<ResolveDetails>> {
  const { record, action } = entry;
  let result: AgentToolResult | undefined;
  try {
    result = await action.reject?.(reason);
  } catch (error) {
    internals.emit({ type: "action-discarded", record, reason, error });
    return {
      content: [{ type: "text", text: rejectFailedText(record, reason, error) }],
      details: resolveDetails("discard", reason, record, undefined, { error: describeError(error) }),
      isError: true,
    };
  }
  internals.emit({ type: "action-discarded", record, reason });
  const discarded: AgentToolResult<ResolveDetails> = {
    content: contentOf(result) ?? [{ type: "text", text: discardedText(record, reason) }],
    details: resolveDetails("discard", reason, record, detailsOf(result)),
  };
  if (result?.isError === true) discarded.isError = true;
  return discarded;
}
