import type { AgentToolResult } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { isActionLost, tellGaveUp } from "./callback-marks.js";
import { entryCallback } from "./entry-callbacks.js";
import type { JournalMove } from "./journal/pending-journal.js";
import { lostReason, moveTo } from "./journal/pending-journal.js";
import {
  type ResolveDetails,
  type ResolveExtra,
  readCallbackResult,
  resolveDetails,
  resolveError,
} from "./resolve-details.js";
import {
  appliedText,
  applyFailedAfterClearText,
  applyFailedText,
  applyLostText,
  applyTimedOutAfterClearText,
  applyTimedOutText,
  handlerMissingText,
  heldElsewhereText,
  interruptedText,
  isolatedInProcessText,
  lostText,
  resolvedElsewhereText,
} from "./resolve-messages.js";
import { actionTimeoutError, runActionCallback } from "./run-action-callback.js";
import { appliedByAnotherStore, noteRunningApply } from "./running-applies.js";
import { leftElsewhere, type PendingEntry, STALE_STACK, type StoreInternals } from "./store-internals.js";

/**
 * Runs `apply(reason)` of an entry already taken off the stack, for at most `timeoutMs`. On
 * success the action is gone; when `apply` throws, returns an `isError` result or does not
 * settle in time, the same entry goes back on top (unless the store was cleared meanwhile)
 * and the caller's lock can be released: this never waits past the deadline.
 *
 * With a durable store, the record is first taken for this process (`applying`; another
 * process that took it first wins, and this resolve does nothing), and each outcome is kept.
 * An entry that cannot be applied here is answered without running anything: interrupted
 * (never applied again), a durable action whose handler no loaded tool declares (kept), one
 * staged in a tool host whose handler here runs in this process (kept, see
 * `SessionOptions.isolatedActionsInProcess`), a callback action of another process (kept while
 * that process may run, else lost).
 */
export async function applyTopAction(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
  timeoutMs: number,
  top = false,
): Promise<AgentToolResult<ResolveDetails> | typeof STALE_STACK> {
  const { record } = entry;
  const clearCountAtStart = internals.clearCount;
  // Answers made from this stack alone (interrupted, another process's, no handler): only once
  // the store was read for this resolve, so that a stale entry is never answered for.
  const fromStack = (answer: () => AgentToolResult<ResolveDetails>) => {
    internals.restore(entry);
    return top ? STALE_STACK : answer();
  };
  if (entry.interrupted === true) return fromStack(() => failure(interruptedText(record), reason, entry, {}));
  const callback = entryCallback(internals, entry, "apply", reason);
  if (callback.kind === "foreign") {
    if (await internals.mayRun(callback.owner))
      return fromStack(() => failure(heldElsewhereText(record, callback.owner), reason, entry, {}));
    const why = lostReason(callback.owner);
    const lost = await journaled(internals, entry, { ...moveTo(internals, "lost", why), top });
    if (lost !== true) return lost === false ? elsewhere(internals, entry, reason, top) : lost;
    internals.emit({ type: "action-discarded", record, reason: why });
    return failure(lostText(record, callback.owner), reason, entry, {});
  }
  if (callback.kind === "refused") {
    const text = isolatedInProcessText(record, "apply", callback.handler);
    return fromStack(() => failure(text, reason, entry, { refusedInProcess: true }));
  }
  if (callback.kind !== "run") {
    const handler = callback.kind === "no-handler" ? callback.handler : (record.handler ?? "");
    return fromStack(() => failure(handlerMissingText(record, handler), reason, entry, {}));
  }
  // Without a journal the move answers at once: the apply starts in this turn. A record still
  // `applying` here is one whose apply timed out in this process: only this process may retry it.
  let claimed = claim(internals, entry, top);
  if (claimed instanceof Promise) claimed = await claimed;
  if (claimed !== true) return claimed === false ? elsewhere(internals, entry, reason, top) : claimed;

  const settling = runActionCallback(
    (event) => internals.emit(event),
    record,
    "apply",
    callback.run,
    timeoutMs,
  );
  // Until the apply itself settles: a timed-out one may still run after the answer.
  noteRunningApply(
    internals,
    record.id,
    settling.then((settlement) => (settlement.status === "timed-out" ? settlement.late : undefined)),
  );
  const settlement = await settling;
  const cleared = internals.clearCount !== clearCountAtStart;
  if (settlement.status === "timed-out") {
    if (entry.action.form === "closure") tellGaveUp(entry.action.apply);
    const error = actionTimeoutError(record, "apply", timeoutMs);
    const extra = { error: describeError(error), timedOut: true };
    if (cleared) {
      const note = keep(
        internals,
        entry,
        moveTo(internals, "discarded", "cleared while applying", error, "applying"),
      );
      if (note instanceof Promise) await note;
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
    // The journal keeps it `applying` (this process's) while its apply may still run: no other
    // process takes it meanwhile, and should this one end, the next finds it interrupted. It is
    // back on top there too, above an action staged while it ran.
    let note = keep(internals, entry, {
      from: ["applying"],
      to: "applying",
      applyingOwner: internals.process,
      restack: true,
    });
    if (note instanceof Promise) note = await note;
    internals.emit({ type: "action-apply-failed", record, error, timedOut: true });
    return failure(applyTimedOutText(record, timeoutMs) + note, reason, entry, extra);
  }
  const result = settlement.status === "fulfilled" ? readCallbackResult(settlement.value) : undefined;
  if (result === undefined || result.isError) {
    const error =
      settlement.status === "rejected"
        ? settlement.reason
        : new Error(result?.text ?? "apply returned an error result");
    const extra = { error: describeError(error) };
    const lost = isActionLost(error);
    if (cleared || lost) {
      const why = cleared ? "cleared while applying" : "lost: it can never be applied";
      const note = keep(internals, entry, moveTo(internals, "discarded", why, error, "applying"));
      if (note instanceof Promise) await note;
      internals.emit({ type: "action-discarded", record, reason: why, error });
      return failure(
        cleared ? applyFailedAfterClearText(record, error) : applyLostText(record, error),
        reason,
        entry,
        extra,
      );
    }
    internals.restore(entry);
    let note = keep(internals, entry, failedMove(internals, reason, error));
    if (note instanceof Promise) note = await note;
    internals.emit({ type: "action-apply-failed", record, error });
    return failure(applyFailedText(record, error) + note, reason, entry, extra);
  }
  let note = keep(internals, entry, {
    from: ["applying"],
    to: "applied",
    transition: { kind: "applied", at: Date.now(), reason, process: internals.process },
  });
  if (note instanceof Promise) note = await note;
  // The handler's own content stands; what the store could not record is added after it.
  const content =
    result.content === undefined
      ? [{ type: "text" as const, text: appliedText(record) + note }]
      : note === ""
        ? result.content
        : [...result.content, { type: "text" as const, text: note.trim() }];
  const applied: AgentToolResult<ResolveDetails> = {
    content,
    details: resolveDetails("apply", reason, record, result.details),
  };
  internals.emit({ type: "action-applied", record, result: applied });
  return applied;
}

/**
 * A failed apply: the record is pending again, on top of its session in the journal too (an
 * action staged while the apply ran is under it, as on this stack).
 */
function failedMove(internals: StoreInternals, reason: string, error: unknown): JournalMove {
  return {
    from: ["applying"],
    to: "pending",
    restack: true,
    transition: {
      kind: "apply-failed",
      at: Date.now(),
      reason,
      error: describeError(error),
      process: internals.process,
    },
  };
}

/**
 * Keeps an outcome in the journal after the callback ran; `""` (at once without a journal),
 * or a sentence saying the store could not keep it (the outcome stands: the record stays
 * `applying`, so a later process finds it interrupted, and never applies it again).
 */
function keep(internals: StoreInternals, entry: PendingEntry, move: JournalMove): string | Promise<string> {
  const unkept = (error: unknown) => ` (The durable store could not record this: ${describeError(error)}.)`;
  const taken = (moved: boolean) =>
    moved
      ? ""
      : " (The durable store did not record this: another process took the action meanwhile, and may have reported it interrupted.)";
  try {
    const moved = internals.move(entry, move);
    return moved instanceof Promise ? moved.then(taken, unkept) : taken(moved);
  } catch (error) {
    return unkept(error);
  }
}

/**
 * Takes the entry's record for this process (`pending → applying`, or still `applying` here
 * after a timed-out apply): `true`, `false` when another process has it, or, when the
 * journal fails, the answer to give (the entry back on top, nothing run).
 */
function claim(
  internals: StoreInternals,
  entry: PendingEntry,
  top: boolean,
): boolean | AgentToolResult<ResolveDetails> | Promise<boolean | AgentToolResult<ResolveDetails>> {
  // This process may take its own `applying` record again, but not from another store of it
  // while that store's apply still runs (two Session objects of one durable session).
  if (appliedByAnotherStore(internals, entry.record.id)) return false;
  return journaled(internals, entry, {
    from: ["pending", "applying"],
    to: "applying",
    owner: internals.process,
    applyingOwner: internals.process,
    top,
  });
}

/**
 * The record did not move: claimed with `top`, the stack was stale (the entry goes back, and
 * the resolve reads the store and tries again); else another process resolved it first.
 */
function elsewhere(
  internals: StoreInternals,
  entry: PendingEntry,
  reason: string,
  top: boolean,
): AgentToolResult<ResolveDetails> | typeof STALE_STACK {
  if (!top) {
    leftElsewhere(internals.emit, entry);
    return failure(resolvedElsewhereText(entry.record), reason, entry, {});
  }
  internals.restore(entry);
  return STALE_STACK;
}

/**
 * `internals.move`, with a journal that fails answered: the entry goes back on top and the
 * answer says the store failed (`E_PENDING_STORE`) and that nothing was run.
 */
function journaled(
  internals: StoreInternals,
  entry: PendingEntry,
  move: JournalMove,
): boolean | AgentToolResult<ResolveDetails> | Promise<boolean | AgentToolResult<ResolveDetails>> {
  const failed = (error: unknown): AgentToolResult<ResolveDetails> => {
    internals.restore(entry);
    return storeFailure(entry, error);
  };
  try {
    const moved = internals.move(entry, move);
    return moved instanceof Promise ? moved.then((value) => value, failed) : moved;
  } catch (error) {
    return failed(error);
  }
}

/** The answer when the durable store fails before anything ran: the action is still pending. */
function storeFailure(entry: PendingEntry, error: unknown): AgentToolResult<ResolveDetails> {
  const { record } = entry;
  return resolveError(
    "apply",
    `E_PENDING_STORE: the durable store failed before ${JSON.stringify(record.label)} was resolved: ${describeError(error)}. ` +
      `Nothing was run; the action is still pending (id ${record.id}). Call resolve again once the store is reachable.`,
    "",
    record,
    { error: describeError(error) },
  );
}

function failure(
  text: string,
  reason: string,
  entry: PendingEntry,
  extra: ResolveExtra,
): AgentToolResult<ResolveDetails> {
  return resolveError("apply", text, reason, entry.record, extra);
}
