import { AsyncLocalStorage } from "node:async_hooks";
import { type CustomToolDurableAction, type CustomToolPendingAction, TooldockError } from "@tooldock/sdk";
import type { PendingActionRecord } from "../../pending/pending-action-record.js";
import type { PendingActionStore } from "../../pending/pending-action-store.js";
import { quoted } from "../../util/quoted.js";
import type { ToolContextSource } from "../tool-context.js";
import type { CallAbort } from "./call-abort.js";
import type { ToolCallError } from "./tool-call-error.js";
import type { ReportFault } from "./tool-call-fault.js";

/**
 * The tool call whose code is running now, as {@link runningToolCall} returns it. The
 * loader's `ToolHost` uses it so that `pi.pushPendingAction` stages onto the session whose
 * call is running, not the host's active session.
 */
export interface RunningToolCall {
  /** The id of the session running the call. */
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** True once the call has answered (its tool settled, or it was aborted, timed out or disposed). */
  readonly ended: boolean;
  /** The calling session's pending store (where this call's pushes go). */
  readonly pending: PendingActionStore;
  /**
   * Pushes onto the calling session's pending store and returns the record;
   * `sourceToolName` is the calling tool's name unless the action names one (as for
   * `ctx.pushPendingAction`). Throws a `TooldockError` `E_CALL_ENDED` once the call has ended.
   */
  pushPendingAction(action: CustomToolPendingAction | CustomToolDurableAction): PendingActionRecord;
}

/** What a scope needs from its session. */
export interface ToolCallScopeOptions {
  /**
   * The session's context source: its id, and the store pushes go to. The object itself is
   * the session's token, who reminds of what the call staged (see {@link ToolCallScope.noteStaged}).
   */
  source: ToolContextSource;
  toolCallId: string;
  toolName: string;
  /** Whether the call has ended; `CallAbort` fits. */
  abort: Pick<CallAbort, "ended">;
  /**
   * Told about the call's contained faults: `late-push-refused` (a push refused because the
   * call had ended) and `stray-exception`/`stray-rejection` (a throw or rejection of code the
   * call left running, see `reportStrayFault`). The session's reporter for the call as is, so
   * a scope costs no closure of its own.
   */
  report: ReportFault;
}

/**
 * One call of one session: what its context and `pi.pushPendingAction` push through, and the
 * actions staged during it, whose `reminder` events the session emits after the call's
 * `tool-call-end`.
 */
export class ToolCallScope implements RunningToolCall {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  // The options' fields, not the options object (see `CallAbort`): one allocation less per call.
  readonly #source: ToolContextSource;
  readonly #abort: Pick<CallAbort, "ended">;
  readonly #report: ReportFault;
  #staged: PendingActionRecord[] | undefined;

  constructor(options: ToolCallScopeOptions) {
    this.sessionId = options.source.sessionId;
    this.toolCallId = options.toolCallId;
    this.toolName = options.toolName;
    this.#source = options.source;
    this.#abort = options.abort;
    this.#report = options.report;
  }

  get ended(): boolean {
    return this.#abort.ended;
  }

  get pending(): PendingActionStore {
    return this.#source.pending;
  }

  pushPendingAction(action: CustomToolPendingAction | CustomToolDurableAction): PendingActionRecord {
    return this.push(action, this.toolName);
  }

  /**
   * Pushes `action` onto the session's store (`sourceToolName` the default when the action
   * names none), noting the record for the call's reminder; throws `E_CALL_ENDED` once ended.
   */
  push(
    action: CustomToolPendingAction | CustomToolDurableAction,
    sourceToolName: string | undefined,
  ): PendingActionRecord {
    if (this.ended) {
      const error = latePushError(this, action);
      this.#report("late-push-refused", error);
      throw error;
    }
    const previous = pushing;
    pushing = this;
    try {
      return this.#source.pending.push(action, sourceToolName === undefined ? {} : { sourceToolName });
    } finally {
      pushing = previous;
    }
  }

  /**
   * Notes `record`, pushed during this call, for a reminder after the call's `tool-call-end`.
   * Returns false (and notes nothing) when the call belongs to another session than `owner`
   * (a store two sessions share), or has ended: that session then reminds at once.
   */
  noteStaged(owner: object, record: PendingActionRecord): boolean {
    if (owner !== this.#source || this.ended) return false;
    if (this.#staged === undefined) this.#staged = [];
    this.#staged.push(record);
    return true;
  }

  /** Reports a throw or rejection of code this call started, with nobody to catch it. */
  reportStray(fault: "stray-exception" | "stray-rejection", error: unknown): void {
    this.#report(fault, error);
  }

  /** The records staged during the call and not yet taken by {@link takeStaged}; `undefined` when none. */
  get staged(): readonly PendingActionRecord[] | undefined {
    return this.#staged;
  }

  /** The records staged during the call, in push order, once; `undefined` when none. */
  takeStaged(): PendingActionRecord[] | undefined {
    const staged = this.#staged;
    this.#staged = undefined;
    return staged;
  }
}

/**
 * Where `runTool` leaves what the call it ran left behind, for the session to read afterwards:
 * its scope (the actions it staged) and, when the tool threw or rejected, that error, read.
 */
export interface ScopeSlot {
  scope: ToolCallScope | undefined;
  error?: ToolCallError;
}

// One storage for the whole runtime: once tracking is on, a session sets it around each
// tool's `execute`, so the awaits and timers the tool starts keep their call. Off until a
// reader asks for it: on Node 20 the first `run` turns on promise hooks for the whole process,
// which every promise then pays for (see the runtime README, "Which session a push reaches").
const calls = new AsyncLocalStorage<ToolCallScope>();
let tracking = false;
// The scope pushing right now (set synchronously around `store.push`, for its listeners).
let pushing: ToolCallScope | undefined;

/**
 * Makes every session run each tool call in its scope from now on, so that
 * {@link runningToolCall} sees it; it cannot be turned off. The loader's `ToolHost` calls it
 * when it is created, before any tool holds its `pi`.
 */
export function trackToolCalls(): void {
  tracking = true;
}

/**
 * The tool call whose code is running in the current async context: the synchronous part of
 * a tool's `execute` and everything it awaited or scheduled, also after the call ended (then
 * `ended` is true). `undefined` outside any call, such as in a factory or an `onSession` hook,
 * and always until {@link trackToolCalls} has been called.
 *
 * @example
 * ```ts
 * const call = runningToolCall();
 * if (call !== undefined) call.pushPendingAction(action); // the calling session's stack
 * ```
 */
export function runningToolCall(): RunningToolCall | undefined {
  return calls.getStore();
}

/**
 * The call whose code threw or rejected, for a process `uncaughtException` or
 * `unhandledRejection` handler: Node runs those handlers in the async context of the throw
 * (or of the rejection), so the call's scope is still the current store there.
 */
export function strayFaultScope(): ToolCallScope | undefined {
  return calls.getStore();
}

/** The scope whose push is running right now (synchronously), for the session's store listener. */
export function pushingToolCallScope(): ToolCallScope | undefined {
  return pushing;
}

// Captured when this module is evaluated: a tool module cannot change how tools are called.
const reflectApply = Reflect.apply;

/**
 * Calls `fn` (a tool's `execute`) with `thisArg` and `args` as part of `scope`'s call, once
 * tracking is on. No closure per call: `run` is handed `Reflect.apply` and its arguments.
 */
export function runInToolCallScope(
  scope: ToolCallScope,
  fn: (...args: never[]) => unknown,
  thisArg: unknown,
  args: unknown[],
): unknown {
  return tracking ? calls.run(scope, reflectApply, fn, thisArg, args) : reflectApply(fn, thisArg, args);
}

/**
 * Calls `fn(argument)` outside any tool call's async context (what it schedules belongs to no
 * call), once tracking is on; otherwise simply calls it.
 */
export function outsideToolCall<A>(fn: (argument: A) => void, argument: A): void {
  if (tracking) calls.exit(fn, argument);
  else fn(argument);
}

/** The error a push gets once its call has ended. */
export function latePushError(
  call: Pick<ToolCallScope, "toolName" | "toolCallId">,
  action: unknown,
): TooldockError {
  return new TooldockError(
    "E_CALL_ENDED",
    `Tool "${call.toolName}" cannot stage the pending action ${quotedLabel(action)}: its call ` +
      `${call.toolCallId} has already ended, so the model would never see a preview of it. ` +
      "Stage pending actions before execute returns.",
  );
}

/** The label of an action for a message, quoted; never throws. */
export function quotedLabel(action: unknown): string {
  try {
    const label = (action as { label?: unknown }).label;
    return typeof label === "string" ? quoted(label) : "(no label)";
  } catch {
    return "(unreadable label)";
  }
}
