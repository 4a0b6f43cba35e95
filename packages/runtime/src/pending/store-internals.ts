import type { PendingActionHandlerContext, PendingActionHandlers } from "@tooldock/sdk";
import type { JournalMove, ProcessIdentity } from "./journal/pending-journal.js";
import type { PendingActionEvent, PendingActionRecord } from "./pending-action-record.js";
import type { PendingActionStore } from "./pending-action-store.js";
import type { PendingActionSnapshot } from "./snapshot-pending-action.js";

/**
 * A callback action restored from a durable store, staged by another process: its
 * callbacks are there, so it can only be discarded here (or reported lost).
 */
export interface ForeignActionSnapshot {
  readonly form: "foreign";
  readonly owner: ProcessIdentity;
}

/**
 * One stack entry: the public record and the action's snapshot with its callbacks (or its
 * handler and payload). `interrupted`: restored from a store after its apply was cut off.
 */
export interface PendingEntry {
  readonly record: PendingActionRecord;
  readonly action: PendingActionSnapshot | ForeignActionSnapshot;
  readonly interrupted?: boolean;
}

/** The durable actions' handlers of the tools a session runs, and what they are told. */
export interface HandlerBinding {
  /** The `actions` of the tool named `toolName`, when a tool of that name is registered. */
  handlers(toolName: string): PendingActionHandlers | undefined;
  context: Pick<PendingActionHandlerContext, "sessionId" | "cwd">;
  /** `SessionOptions.isolatedActionsInProcess`: whether handlers of this process may run actions staged in a tool host. */
  isolatedActionsInProcess: "refuse" | "run";
}

/**
 * What the `resolve` tool needs from a store beyond its public API. Not exported from the
 * package: hosts see records, never the callbacks.
 */
export interface StoreInternals {
  /** Removes the top entry without any event (the resolve outcome sends one). */
  take(): PendingEntry | undefined;
  /** Puts an entry back on top, same record, without an `action-pending` event. */
  restore(entry: PendingEntry): void;
  /** The resolve is done with the entry it took (a read of the journal may list it again). */
  letGo(): void;
  /** The id of the entry a resolve took and has not put back: off the stack, still pending. */
  readonly held: string | undefined;
  emit(event: PendingActionEvent): void;
  /** Increases on every `clear`, so an in-flight resolve can tell it was overtaken. */
  readonly clearCount: number;
  /** True while a resolve holds the store. */
  resolving: boolean;
  /** The store's `callbackTimeoutMs`: the default deadline of its resolve tools. */
  readonly callbackTimeoutMs: number;
  /** Where durable actions find their handlers (set by the session that owns the store). */
  binding: HandlerBinding | undefined;
  /** This process, as the store's durable records name it. */
  readonly process: ProcessIdentity;
  /**
   * Whether the process `owner` may still run (see `mayBeRunning`), asking the journal about a
   * process on another host when it can tell (`PendingActionJournal.processAlive`).
   */
  mayRun(owner: ProcessIdentity): boolean | Promise<boolean>;
  /**
   * Moves the entry's durable record (see `PendingActionJournal.move`); `true` at once
   * without a journal. A journal that fails throws (or rejects).
   */
  move(entry: PendingEntry, move: JournalMove): boolean | Promise<boolean>;
  /**
   * Brings the stack in line with the journal (what other processes staged or resolved);
   * `undefined` at once without one, so a resolve takes its entry in the same turn. With
   * `whenEmpty`, reads the journal only when the stack is empty (a resolve then claims its
   * top with `top: true` and reads it only if that fails). Resolves to whether it read.
   */
  sync(whenEmpty?: boolean): Promise<boolean> | undefined;
  /**
   * `flush()` while journal writes run (or one failed unreported), reporting only the failures
   * of `records` (a call's own); else `undefined`, at once.
   */
  flushing(records: readonly PendingActionRecord[]): Promise<void> | undefined;
}

/** The reason of the event {@link leftElsewhere} sends. */
const LEFT_ELSEWHERE_REASON =
  "discarded elsewhere: another process or Session sharing the durable store discarded it or recorded it lost (its history tells which); its reject did not run";

/**
 * Tells listeners that `entry` left this stack because another store sharing its durable
 * store (another process's, or another Session's of this one) resolved it. Only a callback
 * action of this stack: listeners heard it staged, and only this stack can apply it, so the
 * other one discarded it (or recorded it lost) and its `reject` never ran. A durable action
 * may have been applied there: no event.
 */
export function leftElsewhere(emit: StoreInternals["emit"], entry: PendingEntry): void {
  if (entry.action.form === "closure")
    emit({ type: "action-discarded", record: entry.record, reason: LEFT_ELSEWHERE_REASON });
}

/** What a resolve that claimed its top with `top: true` answers when the stack was stale. */
export const STALE_STACK: unique symbol = Symbol("stale stack");

const internals = new WeakMap<object, StoreInternals>();
const stores = new WeakMap<PendingActionRecord, PendingActionStore>();

/** Called by `push`: the store a record was pushed into. */
export function noteRecordStore(record: PendingActionRecord, store: PendingActionStore): void {
  stores.set(record, store);
}

/**
 * The store `record` was pushed into (by this copy of the package), whoever pushed it: the
 * tool host watches it for the record's departure, also when a host calls a proxy tool with a
 * context of its own, outside a Session's call.
 */
export function storeOfRecord(record: PendingActionRecord): PendingActionStore | undefined {
  return stores.get(record);
}

/**
 * The ids of the actions still pending in `store`: those on its stack, and the one a resolve
 * holds off it right now (it goes back when its apply fails).
 */
export function pendingIds(store: PendingActionStore): Set<string> {
  const ids = new Set(store.list().map((record) => record.id));
  const held = storeInternals(store).held;
  if (held !== undefined) ids.add(held);
  return ids;
}

/** Called by the store's constructor. */
export function registerStoreInternals(store: object, value: StoreInternals): void {
  internals.set(store, value);
}

/** The internals of a store built by this copy of the package. */
export function storeInternals(store: object): StoreInternals {
  const value = internals.get(store);
  if (value === undefined) {
    throw new TypeError("Expected a PendingActionStore created by @tooldock/runtime.");
  }
  return value;
}
