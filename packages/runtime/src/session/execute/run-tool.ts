import { describeError } from "../../util/describe-error.js";
import { createToolContext, type ToolContextSource } from "../tool-context.js";
import type { RegisteredTool } from "../tool-registry.js";
import { CallAbort, linkContext } from "./call-abort.js";
import { DeadlineTimers } from "./deadline-timers.js";
import { forwardUpdates, NO_UPDATES } from "./forward-updates.js";
import type { InFlightCalls } from "./in-flight-calls.js";
import { preparePartial } from "./prepare-partial.js";
import { failed, type StepOutcome, type ToolCall } from "./tool-call.js";
import { readToolCallError } from "./tool-call-error.js";
import type { ReportFault } from "./tool-call-fault.js";
import { toolCallMessages } from "./tool-call-messages.js";
import { outsideToolCall, runInToolCallScope, type ScopeSlot, ToolCallScope } from "./tool-call-scope.js";

// Captured when this module is evaluated: a tool module cannot change how tools are called.
const promiseResolve: (value: unknown) => Promise<unknown> = Promise.resolve.bind(Promise);
const promiseReject: (reason: unknown) => Promise<never> = Promise.reject.bind(Promise);
/** `promise.then(onFulfilled, onRejected)` with the intrinsic `then`, without an arguments array. */
const promiseThen: (
  promise: Promise<unknown>,
  onFulfilled: (value: unknown) => void,
  onRejected: (error: unknown) => void,
) => Promise<unknown> = Function.prototype.call.bind(Promise.prototype.then);
const queueMicrotaskIntrinsic = queueMicrotask;

/** What running a tool needs from its session. */
export interface RunToolOptions {
  source: ToolContextSource;
  /** The session's calls in flight; `dispose()` stops them. */
  inFlight: InFlightCalls;
  /** Stop each call `executeTimeoutMs` after it started. */
  deadlines: DeadlineTimers;
  updateIntervalMs: number;
  /** Most text characters of a partial result. */
  maxResultChars: number;
}

/** The deadlines of a tool that bounds its own run: none. */
const NO_DEADLINES = new DeadlineTimers(Number.POSITIVE_INFINITY);

/** Receives how a call ended: the tool's value, or the error result that ended it. Must not throw. */
export type RunDone = (outcome: StepOutcome<unknown>) => void;

/**
 * Runs the tool, stopped by the host's signal, `ctx.abort()`, `dispose()` or the deadline,
 * whichever comes first ({@link CallAbort}); a tool that can see its `signal` gets one. A
 * throw (of anything), an abort or a timeout ends the call with an error result at once, even
 * when the tool ignores its signal; whatever the tool settles with later is dropped and
 * reported as `late-settle`.
 *
 * `done` is called exactly once, never synchronously: in the job that follows the tool's
 * settling, or in a microtask queued by the stop (outside the tool's async context, so what
 * the session does then, such as emitting `tool-call-end`, is not attributed to the call).
 * A callback rather than a promise of its own: the session's `execute` creates the one
 * promise a call needs, which saves a promise and a job per call (and, once call tracking
 * has turned Node's promise hooks on, their cost for each).
 */
export function runTool(
  entry: RegisteredTool,
  params: unknown,
  call: ToolCall,
  options: RunToolOptions,
  report: ReportFault,
  slot: ScopeSlot,
  done: RunDone,
): void {
  const { name, signal: hostSignal, onUpdate } = call;
  if (hostSignal?.aborted) {
    later(done, failed(toolCallMessages.aborted(name, hostSignal.reason)));
    return;
  }
  const updates =
    onUpdate === undefined
      ? NO_UPDATES
      : forwardUpdates({
          target: onUpdate,
          intervalMs: options.updateIntervalMs,
          prepare: (partial) => preparePartial(partial, options.maxResultChars, report),
          report,
        });
  const abort = new CallAbort({
    name,
    hostSignal,
    deadlines: entry.ownDeadline ? NO_DEADLINES : options.deadlines,
    withSignal: entry.seesSignal,
    inFlight: options.inFlight,
    onStop: (outcome) => {
      updates.end();
      later(done, outcome);
    },
  });
  const { source } = options;
  const scope = new ToolCallScope({
    source,
    toolCallId: call.toolCallId,
    toolName: name,
    abort,
    report,
  });
  slot.scope = scope;
  // A tool that cannot see its context (see `toolSeesContext`) gets none: nothing to build.
  const ctx = entry.seesContext ? createToolContext(source, scope, abort) : undefined;
  if (entry.stopThroughContext && ctx !== undefined) linkContext(ctx, abort);
  const args = [call.toolCallId, params, updates.onUpdate, ctx, abort.signal];
  // The `execute` read at registration, with the original tool as `this`, run in the call's
  // scope (what it awaits or schedules keeps it). A synchronous throw counts as a rejection.
  let returned: unknown;
  try {
    returned = runInToolCallScope(scope, entry.execute, entry.target, args);
  } catch (error) {
    returned = promiseReject(error);
  }
  whenSettled(
    returned,
    (value) => {
      if (!abort.end()) return report("late-settle");
      updates.end(true); // the tool's last partial reaches the host before its result
      done({ ok: true, value });
    },
    (error: unknown) => {
      if (!abort.end()) return report("late-settle", error);
      updates.end(true);
      const description = describeError(error);
      try {
        slot.error = readToolCallError(error, entry.origin, description);
      } catch {
        // Not reached: the read is total. Kept so a thrown value can never hold the call open.
      }
      done(failed(toolCallMessages.threw(name, description)));
    },
  );
}

/** Calls `done(outcome)` in a microtask of its own, outside any tool call's async context. */
function later(done: RunDone, outcome: StepOutcome<unknown>): void {
  outsideToolCall(queueMicrotaskIntrinsic, () => done(outcome));
}

/**
 * Calls `onFulfilled` or `onRejected` (later, never synchronously) with what `value` settles
 * with. A native promise is followed with the intrinsic `then` (one job less than adopting it
 * into a new promise; an own `then` it carries is not called); any other thenable is adopted
 * as `await` would; a promise whose `constructor` or species getter throws counts as rejected
 * with that error.
 */
function whenSettled(
  value: unknown,
  onFulfilled: (value: unknown) => void,
  onRejected: (error: unknown) => void,
): void {
  try {
    promiseThen(promiseResolve(value), onFulfilled, onRejected);
  } catch (error) {
    promiseThen(promiseReject(error), onFulfilled, onRejected);
  }
}
