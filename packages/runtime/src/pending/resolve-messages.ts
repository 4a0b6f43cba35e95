import { describeError } from "../util/describe-error.js";
import { formatDuration } from "../util/format-duration.js";
import { quoted } from "../util/quoted.js";
import type { PendingActionRecord } from "./pending-action-record.js";

/** Exact text when `resolve` finds nothing pending (docs/contract.md §3). */
export const NOTHING_PENDING_MESSAGE = "No pending action to resolve. Nothing to apply or discard.";

/** Text when another resolve holds the store. */
export const RESOLVE_BUSY_MESSAGE =
  "Another resolve is still running for this session. Wait for its result, then call resolve again if an action is still pending.";

/** Text for arguments `resolve` cannot use (only reachable when called outside a session). */
export const INVALID_RESOLVE_ARGUMENTS_MESSAGE =
  'Invalid arguments for resolve: action must be "apply" or "discard" and reason a non-empty string. Call resolve again with both.';

/** Default text of a successful apply whose callback returned no content. */
export function appliedText(record: PendingActionRecord): string {
  return `Applied: ${record.label}`;
}

/** Default text of a discard whose `reject` returned nothing (docs/contract.md §3). */
export function discardedText(record: PendingActionRecord, reason: string): string {
  return `Discarded: ${record.label}. Reason: ${reason}`;
}

/** A failed apply: the action is back on top, nothing is lost. */
export function applyFailedText(record: PendingActionRecord, error: unknown): string {
  return (
    `Apply failed for ${quoted(record.label)}: ${described(error)}. ` +
    `The action is still pending (id ${record.id}). Fix the cause and call resolve with action "apply" again, ` +
    `or call resolve with action "discard" to drop it.`
  );
}

/** An error's description as the middle of a sentence: its own final period dropped (no ".."). */
function described(error: unknown): string {
  return describeError(error).replace(/\.+$/, "");
}

/** A failed apply whose action can never run again (its tool host stopped): not restored. */
export function applyLostText(record: PendingActionRecord, error: unknown): string {
  return (
    `Apply failed for ${quoted(record.label)}: ${describeError(error)} ` +
    "The action was removed from the pending actions and can never be applied; tell the user it was not done."
  );
}

/** A failed apply overtaken by `clear` (for example `dispose`): the action did not come back. */
export function applyFailedAfterClearText(record: PendingActionRecord, error: unknown): string {
  return (
    `Apply failed for ${quoted(record.label)}: ${described(error)}. ` +
    "The pending actions were cleared while it ran, so the action was discarded and is no longer pending."
  );
}

/** A discard whose `reject` threw: still discarded, the error reported. */
export function rejectFailedText(record: PendingActionRecord, reason: string, error: unknown): string {
  return (
    `${discardedText(record, reason)}\n` +
    `The discard cleanup failed: ${described(error)}. The action is no longer pending; tell the user the cleanup may be incomplete.`
  );
}

/** An apply that did not settle in time: back on top, possibly still running. */
export function applyTimedOutText(record: PendingActionRecord, timeoutMs: number): string {
  return (
    `Apply of ${quoted(record.label)} did not finish within ${formatDuration(timeoutMs)} and was given up. ` +
    `The action is still pending (id ${record.id}), but its apply may still be running and change things later. ` +
    `Check the current state, then call resolve with action "apply" to try again or "discard" to drop it.`
  );
}

/** An apply that timed out while the pending actions were cleared: not restored. */
export function applyTimedOutAfterClearText(record: PendingActionRecord, timeoutMs: number): string {
  return (
    `Apply of ${quoted(record.label)} did not finish within ${formatDuration(timeoutMs)} and was given up; it may still be running. ` +
    "The pending actions were cleared meanwhile, so the action was discarded and is no longer pending."
  );
}

/** A discard whose `reject` did not settle in time: still discarded, the timeout reported. */
export function rejectTimedOutText(record: PendingActionRecord, reason: string, timeoutMs: number): string {
  return (
    `${discardedText(record, reason)}\n` +
    `The discard cleanup did not finish within ${formatDuration(timeoutMs)} and was given up; it may still be running. ` +
    "The action is no longer pending; tell the user the cleanup may be incomplete."
  );
}

/** A durable action whose handler no loaded tool declares: kept. */
export function handlerMissingText(record: PendingActionRecord, handler: string): string {
  return (
    `Cannot apply ${quoted(record.label)}: no loaded tool named ${quoted(record.sourceToolName)} declares the action handler ${quoted(handler)}. ` +
    `The action is still pending (id ${record.id}). Load the tool that staged it and call resolve again, or call resolve with action "discard" to drop it.`
  );
}

/**
 * A durable action a tool staged in a tool host, whose handler here runs in this process
 * (`SessionOptions.isolatedActionsInProcess`): nothing ran, it is still pending.
 */
export function isolatedInProcessText(
  record: PendingActionRecord,
  action: "apply" | "discard",
  handler: string,
): string {
  return (
    `Cannot ${action} ${quoted(record.label)}: it was staged by a tool in a tool host (a sandboxed process), and this session's tool ${quoted(record.sourceToolName)} runs in this process, ` +
    `where its handler ${quoted(handler)} would act on the sandboxed tool's data with this process's rights. Nothing was run: nothing was applied or discarded, and the action is still pending (id ${record.id}). ` +
    `Tell the user: resolve it in a session that loads the tools in a tool host (isolation: "process"), or, if they trust the tool, in one opened with isolatedActionsInProcess: "run".`
  );
}

/** An action a resolve found interrupted: its apply was cut off in a process that ended. */
export function interruptedText(record: PendingActionRecord): string {
  return (
    `${quoted(record.label)} was interrupted while it was being applied (its process ended), so the change may be partly made. ` +
    `It is never applied again. Check the current state, then call resolve with action "discard" to drop it (id ${record.id}), and stage the change again if it is still wanted.`
  );
}

/** A discard of an interrupted action: no cleanup runs (what the apply left is unknown). */
export function interruptedDiscardedText(record: PendingActionRecord, reason: string): string {
  return `${discardedText(record, reason)}\nIt had been interrupted while it was being applied: check what it changed; its cleanup was not run.`;
}

/** A callback action of a process that ended: it cannot run anywhere now. */
export function lostText(record: PendingActionRecord, owner: { pid: number; host: string }): string {
  return (
    `${quoted(record.label)} was lost with the process that staged it (pid ${owner.pid} on ${owner.host}), which has ended: its callbacks ran there, so it cannot be applied. ` +
    "It was discarded. Stage the change again if it is still wanted (a durable action, with a handler and a payload, survives a restart)."
  );
}

/** A callback action of another process that may still run: only that process can apply it. */
export function heldElsewhereText(record: PendingActionRecord, owner: { pid: number; host: string }): string {
  return (
    `${quoted(record.label)} was staged by another process (pid ${owner.pid} on ${owner.host}), which may still be running: its callbacks are there, so only it can apply it. ` +
    `The action is still pending (id ${record.id}). Resolve it from that process, or call resolve with action "discard" to drop it.`
  );
}

/** An action another process resolved between this process's look at the stack and its resolve. */
export function resolvedElsewhereText(record: PendingActionRecord): string {
  return `${quoted(record.label)} was resolved by another process meanwhile (id ${record.id}); nothing was done here. Call resolve again if another action is pending.`;
}

/**
 * A resolve whose action is still pending, under one that is on top now: staged by another
 * process meanwhile, or an older one whose apply failed there (back on top, as the journal
 * keeps it). Which of the two this process cannot tell, so the answer names both.
 */
export function newerOnTopText(record: PendingActionRecord, top: PendingActionRecord): string {
  return `${quoted(record.label)} is no longer the newest pending action: ${quoted(top.label)} (id ${top.id}) is on top now (another process staged it meanwhile, or put it back on top when its apply failed there); nothing was done. Call resolve again to apply or discard it.`;
}
