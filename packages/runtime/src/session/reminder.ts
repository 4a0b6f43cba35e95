import type { PendingActionRecord } from "../pending/pending-action-record.js";

/**
 * The text of a `reminder` event: nothing has changed yet, and `resolve` applies or
 * discards the action. The label is named once and not quoted, since labels often hold
 * quotes of their own.
 */
export function reminderText(record: PendingActionRecord): string {
  return (
    "Nothing has changed yet. " +
    `Call the \`resolve\` tool to apply or discard ${record.label} ` +
    '(action "apply" or "discard", with a reason) before doing anything else.'
  );
}
