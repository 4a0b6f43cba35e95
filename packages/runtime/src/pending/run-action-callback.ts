import { quoted } from "../util/quoted.js";
import {
  callbackTimeoutError,
  type LateSettlement,
  type Settlement,
  settleWithin,
} from "./callback-deadline.js";
import type { PendingActionEvent, PendingActionRecord } from "./pending-action-record.js";

/** Which callback of a pending action runs. */
export type ActionCallback = "apply" | "reject";

/**
 * Runs an action's `apply` or `reject` with a deadline ({@link settleWithin}); never rejects.
 * When the deadline comes first, whatever the callback does later is reported once as an
 * `action-settled-late` event and changes nothing else.
 */
export async function runActionCallback(
  emit: (event: PendingActionEvent) => void,
  record: PendingActionRecord,
  callback: ActionCallback,
  run: () => unknown,
  timeoutMs: number,
): Promise<Settlement<unknown>> {
  const settlement = await settleWithin(run, timeoutMs);
  if (settlement.status === "timed-out")
    settlement.late.then((outcome) => emit(lateEvent(record, callback, outcome)));
  return settlement;
}

/** The `E_CALLBACK_TIMEOUT` error of an action's callback that did not settle in time. */
export function actionTimeoutError(record: PendingActionRecord, callback: ActionCallback, timeoutMs: number) {
  return callbackTimeoutError(
    `the ${callback} of pending action ${quoted(record.label)} (id ${record.id})`,
    timeoutMs,
  );
}

function lateEvent(
  record: PendingActionRecord,
  callback: ActionCallback,
  outcome: LateSettlement<unknown>,
): PendingActionEvent {
  return outcome.status === "fulfilled"
    ? { type: "action-settled-late", record, callback, outcome: "fulfilled", value: outcome.value }
    : { type: "action-settled-late", record, callback, outcome: "rejected", error: outcome.reason };
}
