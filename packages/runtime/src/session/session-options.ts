import { TooldockError } from "@tooldock/sdk";
import { checkCallbackTimeout, DEFAULT_CALLBACK_TIMEOUT_MS } from "../pending/callback-deadline.js";
import type { PendingActionStore } from "../pending/pending-action-store.js";
import type { ConversationSource } from "./conversation-source.js";
import type { SessionEvent } from "./session-events.js";
import type { ToolChoice } from "./tool-choice.js";

/**
 * What a session does when the model calls another tool while an action is pending:
 * `"block"` answers with an error that says to call `resolve` first; `"allow"` runs it.
 */
export type PendingPolicy = "block" | "allow";

/**
 * Whether a session's handlers that run in this process may apply or discard a durable action
 * a tool staged in a tool host: `"refuse"` or `"run"` (see
 * {@link SessionOptions.isolatedActionsInProcess}).
 */
export type IsolatedActionsInProcess = "refuse" | "run";

/** Default of {@link SessionOptions.executeTimeoutMs}: ten minutes. */
export const DEFAULT_EXECUTE_TIMEOUT_MS = 600_000;
/** Default of {@link SessionOptions.maxResultChars}. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;
/** Default of {@link SessionOptions.updateIntervalMs}. */
export const DEFAULT_UPDATE_INTERVAL_MS = 50;

/** Options of {@link Session}. Every one has a default. */
export interface SessionOptions {
  /** Working directory tools see as `ctx.cwd`. Default `process.cwd()`. */
  cwd?: string;
  /** Default: a random UUID. */
  sessionId?: string;
  /** The host's tool choice while nothing is pending. Default `"auto"`. */
  toolChoice?: ToolChoice;
  /** Default `"block"`. */
  pendingPolicy?: PendingPolicy;
  /** The pending stack. Default: a new `PendingActionStore` with default options. */
  pending?: PendingActionStore;
  /** Called when a session listener throws; the session carries on. Default: ignored. */
  onListenerError?: (error: unknown, event: SessionEvent) => void;
  /**
   * Longest a tool call may run, in milliseconds. At the deadline the tool's `signal` is
   * aborted (reason: a `TimeoutError` `DOMException`) and `execute` answers with an error
   * result saying the tool timed out; a late result is dropped. `0` or `Infinity`: no limit.
   * Default 600000 (ten minutes). At most 2147483647.
   */
  executeTimeoutMs?: number;
  /**
   * Longest the session waits for a callback outside a tool call, in milliseconds: a pending
   * action's `apply` or `reject` run by `resolve`, each `reject` run by `dispose()`, and each
   * tool's `onSession` hook. The `resolve` call itself is bounded by this deadline instead of
   * `executeTimeoutMs`. A timed-out `apply` puts the action back on top (same id, same
   * record), frees the store for the next resolve, and the result says it timed out and is
   * still pending; a timed-out `reject` counts as discarded and the result says the cleanup
   * timed out; a timed-out hook is reported as `tool-hook-failed`. A callback that settles
   * after its deadline changes nothing (event `action-settled-late`). So `dispose()` always
   * settles, within this deadline per pending action, per tool and once for hooks in flight.
   * Default: `executeTimeoutMs`, or 600000 (ten minutes) when that has no limit. An integer
   * from 1 to 2147483647: these callbacks always have a deadline.
   */
  resolveTimeoutMs?: number;
  /**
   * Most characters of text content a result (or a partial update) may carry; beyond it the
   * text is cut and ends with `… [truncated N characters]`. Images are not counted.
   * `Infinity`: no limit. Default 100000.
   */
  maxResultChars?: number;
  /**
   * Least time between two partial results passed to the host's `onUpdate`: the first goes
   * at once, later ones within the interval are coalesced (the newest wins). `0`: every
   * update is passed on. Default 50.
   */
  updateIntervalMs?: number;
  /**
   * Hidden tools to offer the model anyway: `true` for all of them, or their names.
   * `resolve` is never affected: it is offered exactly while something is pending.
   * Default `false`.
   */
  exposeHiddenTools?: boolean | readonly string[];
  /**
   * What tools may read of the conversation, written for pi (`ctx.sessionManager`,
   * `ctx.model`, `ctx.isIdle()`, `ctx.hasQueuedMessages()`, and the `entries` and
   * `sessionFile` of each `onSession` event): functions the session calls when a tool asks
   * (`model` as each call starts).
   * Default: an empty conversation, no session file, no model, no queued messages, idle
   * while no call runs.
   */
  conversation?: ConversationSource;
  /**
   * What `resolve` does with a durable action a tool staged while it ran in a tool host (the
   * loader's `isolation: "process"`; its record says `isolated: true`, and a durable store
   * keeps it) when this session's tool of that name runs in this process, so that its handler
   * would act on the sandboxed tool's payload with this process's rights. `"refuse"`: nothing
   * runs, the answer is an error saying why and what to do, and the action stays pending
   * (`clear` leaves it on the stack too); load the tools with `isolation: "process"` to
   * resolve it, and its handler runs in a tool host. `"run"`: the host trusts the tools, and
   * their in-process handlers apply and discard such actions like any other (the CLI's
   * `--no-isolate`). Default `"refuse"`.
   */
  isolatedActionsInProcess?: IsolatedActionsInProcess;
}

/** {@link SessionOptions} with every default filled in, read once by the session. */
export interface SessionConfig {
  cwd: string;
  sessionId: string;
  toolChoice: ToolChoice;
  pendingPolicy: PendingPolicy;
  onListenerError: (error: unknown, event: SessionEvent) => void;
  /** `Infinity` when there is no limit. */
  executeTimeoutMs: number;
  /** Always finite. */
  resolveTimeoutMs: number;
  maxResultChars: number;
  updateIntervalMs: number;
  /** Whether a hidden tool (other than `resolve`) of that name is offered. */
  exposesHidden: (name: string) => boolean;
  isolatedActionsInProcess: IsolatedActionsInProcess;
}

const MAX_TIMER_MS = 2_147_483_647;

/** Fills in the defaults of {@link SessionOptions}; a bad number throws `E_INVALID_OPTION`. */
export function resolveSessionOptions(options: SessionOptions): SessionConfig {
  const timeout = options.executeTimeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS;
  checkNumber("executeTimeoutMs", timeout, 0, MAX_TIMER_MS);
  const executeTimeoutMs = timeout === 0 ? Number.POSITIVE_INFINITY : timeout;
  const resolveTimeoutMs = checkCallbackTimeout(
    "Session option resolveTimeoutMs",
    options.resolveTimeoutMs ??
      (Number.isFinite(executeTimeoutMs) ? executeTimeoutMs : DEFAULT_CALLBACK_TIMEOUT_MS),
  );
  const maxResultChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  checkNumber("maxResultChars", maxResultChars, 1, Number.MAX_SAFE_INTEGER);
  const updateIntervalMs = options.updateIntervalMs ?? DEFAULT_UPDATE_INTERVAL_MS;
  checkNumber("updateIntervalMs", updateIntervalMs, 0, MAX_TIMER_MS);
  return {
    cwd: options.cwd ?? process.cwd(),
    sessionId: options.sessionId ?? globalThis.crypto.randomUUID(),
    toolChoice: options.toolChoice ?? "auto",
    pendingPolicy: options.pendingPolicy ?? "block",
    onListenerError: options.onListenerError ?? (() => {}),
    executeTimeoutMs,
    resolveTimeoutMs,
    maxResultChars,
    updateIntervalMs,
    exposesHidden: hiddenExposure(options.exposeHiddenTools ?? false),
    // Anything but "run" refuses: a misspelt opt-in runs nothing it should not.
    isolatedActionsInProcess: options.isolatedActionsInProcess === "run" ? "run" : "refuse",
  };
}

/** Accepts an integer in [min, max], or `Infinity` (no limit). */
function checkNumber(name: string, value: number, min: number, max: number): void {
  if (value === Number.POSITIVE_INFINITY) return;
  if (Number.isInteger(value) && value >= min && value <= max) return;
  throw new TooldockError(
    "E_INVALID_OPTION",
    `Session option ${name} must be an integer from ${min} to ${max}, or Infinity; got ${String(value)}. Fix the option.`,
  );
}

function hiddenExposure(value: boolean | readonly string[]): (name: string) => boolean {
  if (typeof value === "boolean") return () => value;
  const names = new Set(value);
  return (name) => names.has(name);
}
