/**
 * A fault of a tool (or of the host's `onUpdate`) that the session contained without
 * changing the call's result, reported as a `tool-call-fault` event so a host can log it:
 *
 * - `late-settle`: the tool settled after its call had ended (aborted, timed out, session
 *   disposed); the value was dropped. `error` is the rejection reason when it rejected.
 * - `late-push-refused`: the tool staged a pending action through `ctx.pushPendingAction`
 *   after its call had ended; the push threw `error` (`E_CALL_ENDED`) to the tool.
 * - `details-dropped`: the result's `details` could not be read or serialised to JSON
 *   (circular, a `BigInt`, a throwing getter or `toJSON`); the result kept its content.
 * - `update-dropped`: a partial result was malformed and not passed to the host.
 * - `update-listener-failed`: the host's `onUpdate` threw or returned a rejected promise.
 * - `stray-exception` / `stray-rejection`: code the call started and left running (a timer,
 *   a child process's `close` handler, a promise nobody awaits) threw or rejected with nobody
 *   to catch it, usually after the call returned. Reported only while a handler installed by
 *   `containStrayFaults` (or the host's own, calling `reportStrayFault`) keeps the process alive.
 */
export type ToolCallFault =
  | "late-settle"
  | "late-push-refused"
  | "details-dropped"
  | "update-dropped"
  | "update-listener-failed"
  | "stray-exception"
  | "stray-rejection";

/** The `tool-call-fault` session event. */
export interface ToolCallFaultEvent {
  type: "tool-call-fault";
  toolCallId: string;
  name: string;
  fault: ToolCallFault;
  /** What went wrong, when there is a value to show (a rejection reason, a thrown error). */
  error?: unknown;
}

/** Reports a contained fault; never throws. */
export type ReportFault = (fault: ToolCallFault, error?: unknown) => void;
