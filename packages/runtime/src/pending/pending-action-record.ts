import type { AgentToolResult } from "@tooldock/sdk";

/**
 * The public view of a pending action: what a host may show and what `list()` returns.
 * The action's callbacks stay inside the store.
 */
export interface PendingActionRecord {
  /** Stable for the action's whole life, also across a failed apply. */
  id: string;
  label: string;
  /** The tool that staged the action; `"custom_tool"` when the producer did not say. */
  sourceToolName: string;
  details: unknown;
  /** When the action was pushed (milliseconds, from the store's `now`). */
  createdAt: number;
  /** A durable action's handler: the key in its source tool's `actions`. */
  handler?: string;
  /** A durable action's payload (a frozen JSON copy). */
  payload?: unknown;
  /**
   * Restored from a durable store after its apply was cut off (its process ended): it may be
   * partly applied, so it is never applied again, only discarded.
   */
  interrupted?: true;
  /** Restored from a durable store: a callback action staged by another process, which only it can apply. */
  stagedBy?: { host: string; pid: number };
  /**
   * A durable action staged by a tool that ran in a tool host (the loader's `isolation:
   * "process"`): its handler belongs in a tool host too, wherever it is applied (`tooldock
   * pending apply` runs it in one unless `--no-isolate`). Kept by durable stores.
   */
  isolated?: true;
}

/**
 * What a {@link PendingActionStore} listener receives.
 *
 * - `action-pending`: a new action was pushed (not sent again when a failed apply restores it).
 * - `action-applied`: `apply` succeeded; the action left the stack.
 * - `action-apply-failed`: `apply` failed, or did not settle within its deadline (`timedOut`,
 *   `error` an `E_CALLBACK_TIMEOUT` `TooldockError`); the action is pending again, on top.
 * - `action-discarded`: the action left the stack without being applied (`resolve` discard,
 *   `clear`, `pop`, or, for a callback action of this stack, another process or Session
 *   sharing the durable store discarded it or recorded it lost); `error` is set when its
 *   `reject` callback threw, or did not settle within its deadline (`timedOut`).
 * - `action-settled-late`: an `apply` or `reject` that had timed out settled after all. Its
 *   outcome changes nothing on the stack: a late apply's action stays pending (resolve it
 *   again or discard it), a late reject's action stays discarded. `value` is what it returned
 *   (`"fulfilled"`), `error` what it threw (`"rejected"`).
 */
export type PendingActionEvent =
  | { type: "action-pending"; record: PendingActionRecord }
  | { type: "action-applied"; record: PendingActionRecord; result: AgentToolResult }
  | { type: "action-apply-failed"; record: PendingActionRecord; error: unknown; timedOut?: boolean }
  | {
      type: "action-discarded";
      record: PendingActionRecord;
      reason: string;
      error?: unknown;
      timedOut?: boolean;
    }
  | {
      type: "action-settled-late";
      record: PendingActionRecord;
      callback: "apply" | "reject";
      outcome: "fulfilled" | "rejected";
      value?: unknown;
      error?: unknown;
    };

/** Receives every {@link PendingActionEvent} of a store. */
export type PendingActionListener = (event: PendingActionEvent) => void;
