import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import type { Settlement } from "./callback-deadline.js";
import { tellGaveUp } from "./callback-marks.js";
import { type EntryCallback, entryCallback } from "./entry-callbacks.js";
import { lostReason, moveTo } from "./journal/pending-journal.js";
import { type ResolveDetails, readCallbackResult, resolveDetails, resolveError } from "./resolve-details.js";
import {
  discardedText,
  interruptedDiscardedText,
  isolatedInProcessText,
  lostText,
  rejectFailedText,
  rejectTimedOutText,
  resolvedElsewhereText,
} from "./resolve-messages.js";
import { actionTimeoutError, runActionCallback } from "./run-action-callback.js";
import { appliedByAnotherStore } from "./running-applies.js";
import { leftElsewhere, type PendingEntry, STALE_STACK, type StoreInternals } from "./store-internals.js";

/** What the store needs to discard an entry (the `resolve` tool and `clear`). */
export type DiscardInternals = Pick<StoreInternals, "emit" | "move" | "binding" | "process" | "mayRun">;

/**
 * How a discard ended: `reject` ran (`ran`, with how it settled), there was none to run here
 * (`skipped`: none declared, an interrupted entry, or a callback action of another process
 * that may still run), the entry's process had ended (`lost`), another process resolved the
 * record first (`elsewhere`: nothing done here), or its handler here may not run it
 * (`refused`, see `refusedInProcess`: nothing done, the record still pending).
 */
export type DiscardOutcome =
  | { kind: "ran"; settlement: Settlement<unknown> }
  | { kind: "skipped" }
  | { kind: "lost"; owner: { pid: number; host: string } }
  | { kind: "elsewhere" }
  | { kind: "refused"; handler: string };

/**
 * Discards an entry already taken off the stack: with a durable store, its record is
 * discarded first (another process that resolved it first wins, and nothing runs here);
 * then `reject(reason)` runs when there is one to run here, for at most `timeoutMs`, and
 * `action-discarded` is emitted, with the error when `reject` threw or rejected, and with
 * an `E_CALLBACK_TIMEOUT` error and `timedOut: true` when it did not settle in time. A
 * callback action whose process has ended is recorded lost. Never rejects unless the
 * durable store fails. Used by the `resolve` tool and by `clear`.
 */
export async function discardEntry(
  internals: DiscardInternals,
  entry: PendingEntry,
  reason: string,
  timeoutMs: number,
  top = false,
): Promise<DiscardOutcome> {
  const { record } = entry;
  const emit = internals.emit;
  // An interrupted record (whatever its form) is discarded as it is: nothing runs.
  const callback: EntryCallback =
    entry.interrupted === true ? { kind: "none" } : entryCallback(internals, entry, "reject", reason);
  if (callback.kind === "refused") return { kind: "refused", handler: callback.handler };
  // Only a journal restores another process's actions: nothing is awaited without one.
  if (callback.kind === "foreign" && !(await internals.mayRun(callback.owner))) {
    const why = lostReason(callback.owner);
    let lost = internals.move(entry, { ...moveTo(internals, "lost", why), top });
    if (lost instanceof Promise) lost = await lost;
    if (!lost) return { kind: "elsewhere" };
    emit({ type: "action-discarded", record, reason: why });
    return { kind: "lost", owner: callback.owner };
  }
  const from = entry.interrupted === true ? "interrupted" : "pending";
  // Another store of this process still applies it: not this discard's to take.
  if (appliedByAnotherStore(internals, record.id)) return { kind: "elsewhere" };
  const discarding = { ...moveTo(internals, "discarded", reason, undefined, from), top };
  // A record this process left `applying` (its apply timed out) is discarded here too.
  let moved = internals.move(
    entry,
    from === "pending"
      ? { ...discarding, from: ["pending", "applying"], applyingOwner: internals.process }
      : discarding,
  );
  if (moved instanceof Promise) moved = await moved;
  if (!moved) return { kind: "elsewhere" };
  if (callback.kind !== "run") {
    emit({ type: "action-discarded", record, reason });
    return { kind: "skipped" };
  }
  const settlement = await runActionCallback(emit, record, "reject", callback.run, timeoutMs);
  if (settlement.status === "timed-out") {
    if (entry.action.form === "closure") tellGaveUp(entry.action.reject);
    const error = actionTimeoutError(record, "reject", timeoutMs);
    emit({ type: "action-discarded", record, reason, error, timedOut: true });
  } else if (settlement.status === "rejected") {
    emit({ type: "action-discarded", record, reason, error: settlement.reason });
  } else {
    emit({ type: "action-discarded", record, reason });
  }
  return { kind: "ran", settlement };
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
  top = false,
): Promise<AgentToolResult<ResolveDetails> | typeof STALE_STACK> {
  const { record } = entry;
  let outcome: DiscardOutcome;
  try {
    outcome = await discardEntry(internals, entry, reason, timeoutMs, top);
  } catch (error) {
    // The durable store failed before anything ran: the action stays, on top.
    internals.restore(entry);
    return discardError(
      `E_PENDING_STORE: the durable store failed before ${JSON.stringify(record.label)} was discarded: ${describeError(error)}. ` +
        `Nothing was run; the action is still pending (id ${record.id}). Call resolve again once the store is reachable.`,
      reason,
      entry,
    );
  }
  if (outcome.kind === "elsewhere") {
    if (!top) {
      leftElsewhere(internals.emit, entry);
      return discardError(resolvedElsewhereText(record), reason, entry);
    }
    // Claimed with `top` on a stale stack: the resolve reads the store and tries again.
    internals.restore(entry);
    return STALE_STACK;
  }
  if (outcome.kind === "lost") return discardError(lostText(record, outcome.owner), reason, entry);
  if (outcome.kind === "refused") {
    // Answered from this stack alone: only once the store was read for this resolve, as an apply.
    internals.restore(entry);
    if (top) return STALE_STACK;
    const text = isolatedInProcessText(record, "discard", outcome.handler);
    return resolveError("discard", text, reason, record, { refusedInProcess: true });
  }
  if (outcome.kind === "skipped") {
    const text =
      entry.interrupted === true ? interruptedDiscardedText(record, reason) : discardedText(record, reason);
    return {
      content: [{ type: "text", text }],
      details: resolveDetails("discard", reason, record, undefined),
    };
  }
  const { settlement } = outcome;
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

function discardError(text: string, reason: string, entry: PendingEntry): AgentToolResult<ResolveDetails> {
  return resolveError("discard", text, reason, entry.record);
}
