import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { describeError } from "../../util/describe-error.js";

/**
 * Where a durable record stands. `pending`: on its session's stack. `applying`: a resolve
 * took it and runs its `apply` (in the process named by `owner`). `interrupted`: that process
 * ended in the middle of the apply; the change may be partly made, so it is never applied
 * again, only discarded. The others are ends: `applied`, `discarded`, `lost` (a callback
 * action whose process ended before it was resolved).
 */
export type JournalState = "pending" | "applying" | "interrupted" | "applied" | "discarded" | "lost";

/** What happened to an action, as its history keeps it. */
export type TransitionKind = "staged" | "applied" | "apply-failed" | "discarded" | "lost" | "interrupted";

/** A process that staged or is applying an action: its host, its pid and a token of its own. */
export interface ProcessIdentity {
  readonly host: string;
  readonly pid: number;
  /** Unique to one run of the process (a pid is reused). */
  readonly token: string;
}

/** One action as a durable store keeps it. */
export interface JournalRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly state: JournalState;
  readonly label: string;
  readonly sourceToolName: string;
  /** JSON data; `undefined` when the action had none. */
  readonly details: unknown;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** `data`: a durable action (`handler` and `payload`); `closure`: callbacks, bound to `owner`. */
  readonly form: "data" | "closure";
  readonly handler?: string | undefined;
  readonly payload?: unknown;
  /** A durable action's working folder: the staging session's (its handler's `ctx.cwd`). */
  readonly cwd?: string | undefined;
  /** A durable action staged by a tool in a tool host (`PendingActionRecord.isolated`). */
  readonly isolated?: boolean | undefined;
  /** The process that staged it, or the one applying it (`applying`, `interrupted`). */
  readonly owner: ProcessIdentity;
}

/** One step of an action's history. */
export interface JournalTransition {
  readonly actionId: string;
  readonly sessionId: string;
  readonly kind: TransitionKind;
  /** The action's label, when the journal has it (the built-in ones do, in `history`). */
  readonly label?: string | undefined;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** The reason the model or the user gave, or the store's own (`lost with its process …`). */
  readonly reason?: string | undefined;
  /** What an apply or a reject threw, as text. */
  readonly error?: string | undefined;
  /** The process that made the step. */
  readonly process: ProcessIdentity;
}

/** A change of a record's state, made only when the record is in one of `from`. */
export interface JournalMove {
  readonly from: readonly JournalState[];
  readonly to: JournalState;
  /** The record's owner from now on (the applying process); unchanged when absent. */
  readonly owner?: ProcessIdentity | undefined;
  /** When given, a record that is `applying` moves only if this process owns it (a retry after a timeout). */
  readonly applyingOwner?: ProcessIdentity | undefined;
  /**
   * When `true`, the record moves only while no record of its session staged after it is
   * open (`pending`, `applying`, `interrupted`): a resolve claims the top of the stack it
   * holds without reading the stack first, and reads it only when this answers `false`.
   */
  readonly top?: boolean | undefined;
  /**
   * When `true`, the record that moves becomes the newest of its session, as if staged now
   * (in the same atomic step as the move): `open` lists it last, and a `top` move of a
   * record staged before it fails while it is open. A failed or timed-out apply asks for it:
   * the action goes back on top of its stack even when another one was staged while it ran.
   * A journal without it keeps the order of staging, and such an action then reads as under
   * the newer one, here and in every other process.
   */
  readonly restack?: boolean | undefined;
  /** The step to keep in the history, when the move is one. */
  readonly transition?: Omit<JournalTransition, "actionId" | "sessionId"> | undefined;
}

/**
 * Where a {@link PendingActionStore} keeps its actions so that they outlive the process: an
 * SQLite file (`openSqliteJournal`), PostgreSQL, or any store that can do these few things
 * atomically. Each method may answer synchronously (SQLite) or with a promise.
 */
export interface PendingActionJournal {
  /** The session's records that are not settled (`pending`, `applying`, `interrupted`), oldest first. */
  open(sessionId: string): readonly JournalRecord[] | Promise<readonly JournalRecord[]>;
  /**
   * Adds a `pending` record (its `staged` step with it); the store orders records as it adds
   * them, and puts a record a `restack` move moves after every other one.
   */
  stage(record: JournalRecord, process: ProcessIdentity): void | Promise<void>;
  /**
   * Moves record `id` to `move.to` if and only if it is in one of `move.from`, keeping the
   * transition: `true` when it moved. Two processes moving the same record: one wins.
   */
  move(id: string, move: JournalMove): boolean | Promise<boolean>;
  /** The history of a session or of one action, oldest first. */
  history(filter: {
    sessionId?: string;
    actionId?: string;
  }): readonly JournalTransition[] | Promise<readonly JournalTransition[]>;
  /** Closes the connection or file; the journal is not used afterwards. */
  close(): void | Promise<void>;
  /**
   * Whether the process `owner` still runs, when the store knows: `true` or `false`; asked
   * before any pid (a pid may be another container's that shares the hostname, or reused).
   * PostgreSQL knows: each process holds a lock on its own connection while it has actions in
   * the store, and the server drops the lock when the connection goes. `undefined` (or no such
   * method) when it cannot tell: a process on this host is then asked by its pid, one on
   * another host taken for running (its callback actions are never reported lost from here,
   * its `applying` records never interrupted).
   */
  processAlive?(owner: ProcessIdentity): boolean | undefined | Promise<boolean | undefined>;
}

/** This process, as durable records name it. */
export const THIS_PROCESS: ProcessIdentity = Object.freeze({
  host: hostname(),
  pid: process.pid,
  token: randomUUID(),
});

/**
 * Whether the process `owner` names may still be running: this one; one on this host whose
 * pid answers a signal 0, unless that pid is this process's own (an earlier run of a
 * container whose process is pid 1 again); and any process on another host, which cannot be
 * asked. Another reused pid is taken for the same process: never assumed dead when it may be
 * alive.
 */
export function mayBeRunning(owner: ProcessIdentity, self: ProcessIdentity = THIS_PROCESS): boolean {
  if (owner.token === self.token) return true;
  if (owner.host !== self.host) return true;
  // This process's own pid with another token: an earlier run (a container restarts as pid 1).
  if (owner.pid === self.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code !== "ESRCH";
  }
}

/** A move of the entry's record to an end state (or `pending`), with its step. */
export function moveTo(
  internals: { readonly process: ProcessIdentity },
  to: "discarded" | "lost",
  reason: string,
  error?: unknown,
  from: "pending" | "applying" | "interrupted" = "pending",
): JournalMove {
  return {
    from: [from],
    to,
    transition: {
      kind: to,
      at: Date.now(),
      reason,
      error: error === undefined ? undefined : describeError(error),
      process: internals.process,
    },
  };
}

/** Why a callback action is dropped once the process that staged it has ended. */
export function lostReason(owner: ProcessIdentity): string {
  return `lost with its process (pid ${owner.pid} on ${owner.host})`;
}
