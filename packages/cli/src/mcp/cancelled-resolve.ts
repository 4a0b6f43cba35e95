import { count, quoted } from "@tooldock/runtime/internal";
import type { AgentToolResult } from "@tooldock/sdk";

/**
 * The log entry for a `resolve` the client cancelled while it ran (`notifications/cancelled`).
 * The server does not abort such a call: an action's `apply` takes no signal, so it could not
 * stop before it writes, and stopping only the wait would drop the result of a change that is
 * still made. It runs to the end instead, its response is not sent (the protocol answers no
 * cancelled request), and this text, logged to the client, says which action and what became
 * of it: applied, discarded, or (a failed apply) still pending. `undefined` when the result
 * names no action (nothing was pending, another resolve was running): nothing happened then.
 */
export function cancelledResolveText(result: AgentToolResult): string | undefined {
  const details = result.details as { action?: unknown; id?: unknown; label?: unknown } | undefined;
  if (typeof details?.id !== "string" || typeof details.label !== "string") return undefined;
  const verb = details.action === "discard" ? "discard" : "apply";
  const outcome = result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
  const ending = result.isError ? "it failed" : "it finished";
  return (
    `resolve was cancelled by the client, but the ${verb} of pending action ${quoted(details.label)} (id ${details.id}) ` +
    `had started and cannot be stopped, so ${ending}: ${outcome}`
  );
}

/**
 * The log entry for another tool's call the client cancelled after it had staged pending
 * actions: the call was stopped, but what it staged stays pending (its reminders, which the
 * unsent response would have carried, follow), so the client learns why `resolve` appeared.
 * `undefined` when it staged nothing.
 */
export function cancelledCallText(toolName: string, reminders: readonly string[]): string | undefined {
  if (reminders.length === 0) return undefined;
  return [
    `The cancelled call of "${toolName}" had already staged ${count(reminders.length, "pending action")}:`,
    ...reminders,
  ].join("\n");
}
