import type { PendingActionRecord } from "@tooldock/runtime";

/**
 * The line appended to a tool result that staged a pending action, when the session did not
 * emit its own `reminder` text for it. Same words as the session's reminder (SPEC §4).
 */
export function formatPendingNote(record: Pick<PendingActionRecord, "label">): string {
  return `Nothing has changed yet. Call \`resolve\` with action "apply" or "discard" (and a reason) to apply or discard: ${record.label}`;
}
