import type { PendingActionEvent, PendingActionRecord } from "./pending-action-record.js";
import type { PendingActionSnapshot } from "./snapshot-pending-action.js";

/** One stack entry: the public record and the action's snapshot with its callbacks. */
export interface PendingEntry {
  readonly record: PendingActionRecord;
  readonly action: PendingActionSnapshot;
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
  emit(event: PendingActionEvent): void;
  /** Increases on every `clear`, so an in-flight resolve can tell it was overtaken. */
  readonly clearCount: number;
  /** True while a resolve holds the store. */
  resolving: boolean;
  /** The store's `callbackTimeoutMs`: the default deadline of its resolve tools. */
  readonly callbackTimeoutMs: number;
}

const internals = new WeakMap<object, StoreInternals>();

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
