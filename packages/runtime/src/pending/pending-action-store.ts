import type { CustomToolPendingAction } from "@tooldock/sdk";
import { SafeEmitter } from "../util/safe-emitter.js";
import { checkCallbackTimeout, DEFAULT_CALLBACK_TIMEOUT_MS } from "./callback-deadline.js";
import { discardEntry } from "./discard-top-action.js";
import type {
  PendingActionEvent,
  PendingActionListener,
  PendingActionRecord,
} from "./pending-action-record.js";
import { snapshotPendingAction } from "./snapshot-pending-action.js";
import { type PendingEntry, registerStoreInternals } from "./store-internals.js";

/** The `sourceToolName` of an action whose producer did not name itself. */
export const DEFAULT_SOURCE_TOOL_NAME = "custom_tool";

/** Options of {@link PendingActionStore}. Every one has a default. */
export interface PendingActionStoreOptions {
  /** Clock for `createdAt`. Default `Date.now`. */
  now?: () => number;
  /** Id generator. Default `crypto.randomUUID()`. */
  createId?: () => string;
  /**
   * Called when a listener throws or rejects. The store's state never depends on listeners and the
   * other listeners still run, even when this handler throws. Default: the error is ignored.
   */
  onListenerError?: (error: unknown, event: PendingActionEvent) => void;
  /**
   * Longest `clear` waits for each action's `reject`, in milliseconds, and the deadline of a
   * resolve tool created for this store without one of its own. A callback that does not
   * settle in time is given up (see `clear` and `createResolveTool`). An integer from 1 to
   * 2147483647; default 600000 (ten minutes). A `Session` passes its `resolveTimeoutMs`
   * instead, for its own resolve tool and `dispose()`.
   */
  callbackTimeoutMs?: number;
}

/** Options of {@link PendingActionStore.push}. */
export interface PushOptions {
  /**
   * The record's `sourceToolName` when the action names none; default
   * {@link DEFAULT_SOURCE_TOOL_NAME}. A session's `ctx.pushPendingAction` passes the calling
   * tool's name.
   */
  sourceToolName?: string;
}

/** Options of {@link PendingActionStore.clear}. */
export interface ClearOptions {
  /** Longest to wait for each `reject`; default the store's `callbackTimeoutMs`. */
  timeoutMs?: number;
}

/**
 * The LIFO stack of previewed changes awaiting `apply` or `discard` (docs/contract.md §3).
 *
 * Records (`id`, `label`, `sourceToolName`, `details`, `createdAt`) are public; the
 * callbacks stay inside and only the `resolve` tool (and `clear`) run them.
 *
 * @example
 * ```ts
 * const store = new PendingActionStore();
 * store.subscribe((event) => log(event.type, event.record.label));
 * store.push({ label: "Rename 3 files", apply: async () => textResult("Renamed") });
 * store.peek()?.label; // "Rename 3 files"
 * ```
 */
export class PendingActionStore {
  readonly #entries: PendingEntry[] = [];
  readonly #now: () => number;
  readonly #createId: () => string;
  readonly #emitter: SafeEmitter<PendingActionEvent>;
  readonly #callbackTimeoutMs: number;
  #clearCount = 0;

  constructor(options: PendingActionStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#createId = options.createId ?? (() => globalThis.crypto.randomUUID());
    this.#emitter = new SafeEmitter(options.onListenerError ?? (() => {}));
    this.#callbackTimeoutMs = checkCallbackTimeout(
      "PendingActionStore option callbackTimeoutMs",
      options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    );
    const callbackTimeoutMs = this.#callbackTimeoutMs;
    const entries = this.#entries;
    const store = this;
    registerStoreInternals(this, {
      take: () => entries.pop(),
      restore: (entry) => {
        entries.push(entry);
      },
      emit: (event) => this.#emit(event),
      get clearCount() {
        return store.#clearCount;
      },
      resolving: false,
      callbackTimeoutMs,
    });
  }

  /**
   * Puts a new action on top and returns its record. Every field of `action` is read once,
   * here (see {@link PushOptions} for `sourceToolName`): the record holds the label, the
   * source and a JSON copy of `details`, and the store keeps the `apply` and `reject`
   * functions it read, called later with `action` as `this`. A getter or proxy that would
   * answer differently later changes nothing. Throws a `TooldockError`
   * (`E_INVALID_PENDING_ACTION`) when the label is not a non-empty string, `apply` is not a
   * function, `reject` or `sourceToolName` has the wrong type, `details` are not JSON data,
   * or reading a field throws; nothing is pushed then.
   */
  push(action: CustomToolPendingAction, options: PushOptions = {}): PendingActionRecord {
    const snapshot = snapshotPendingAction(action);
    const record: PendingActionRecord = Object.freeze({
      id: this.#createId(),
      label: snapshot.label,
      sourceToolName: snapshot.sourceToolName ?? options.sourceToolName ?? DEFAULT_SOURCE_TOOL_NAME,
      details: deepFreeze(snapshot.details),
      createdAt: this.#now(),
    });
    this.#entries.push(Object.freeze({ record, action: snapshot }));
    this.#emit({ type: "action-pending", record });
    return record;
  }

  /** The top record (the next one `resolve` acts on), left in place. */
  peek(): PendingActionRecord | undefined {
    return this.#entries.at(-1)?.record;
  }

  /**
   * Removes the top action without running `apply` or `reject` and returns its record.
   * Listeners get `action-discarded` with reason `removed by pop()`.
   */
  pop(): PendingActionRecord | undefined {
    const entry = this.#entries.pop();
    if (entry === undefined) return undefined;
    this.#emit({ type: "action-discarded", record: entry.record, reason: "removed by pop()" });
    return entry.record;
  }

  /**
   * Removes the action with record `id`, wherever it is in the stack, without running its
   * `apply` or `reject`, and returns its record (`undefined` when no action has that id, e.g.
   * one a `resolve` is settling right now). Listeners get `action-discarded` with `reason`.
   * For an action that can no longer run: its tool host stopped, so it is lost.
   */
  remove(id: string, reason: string): PendingActionRecord | undefined {
    const index = this.#entries.findIndex((entry) => entry.record.id === id);
    if (index === -1) return undefined;
    const [entry] = this.#entries.splice(index, 1) as [PendingEntry];
    this.#emit({ type: "action-discarded", record: entry.record, reason });
    return entry.record;
  }

  /** True while at least one action is pending. */
  get hasPending(): boolean {
    return this.#entries.length > 0;
  }

  /** How many actions are pending. */
  get size(): number {
    return this.#entries.length;
  }

  /** Every pending record, top (newest) first. */
  list(): PendingActionRecord[] {
    return this.#entries.map((entry) => entry.record).reverse();
  }

  /**
   * Discards every action, calling each `reject(reason)` where present: all of them at once
   * (started top first), each waited for at most `timeoutMs` (default: the store's
   * `callbackTimeoutMs`), so `clear` settles within `timeoutMs` however many are pending. A
   * throwing `reject` does not stop the others; its error rides on the `action-discarded`
   * event (one per action, as each settles). A `reject` that does not settle in time is given
   * up: its event carries an `E_CALLBACK_TIMEOUT` error and `timedOut: true`. `clear` never
   * rejects.
   */
  async clear(reason: string, options: ClearOptions = {}): Promise<void> {
    const timeoutMs =
      options.timeoutMs === undefined
        ? this.#callbackTimeoutMs
        : checkCallbackTimeout("clear option timeoutMs", options.timeoutMs);
    this.#clearCount += 1;
    const entries = this.#entries.splice(0).reverse();
    const emit = (event: PendingActionEvent) => this.#emit(event);
    // Side by side: one after another, 1,000 slow rejects kept a dispose() for 151 s.
    await Promise.all(entries.map((entry) => discardEntry(emit, entry, reason, timeoutMs)));
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: PendingActionListener): () => void {
    return this.#emitter.subscribe(listener);
  }

  #emit(event: PendingActionEvent): void {
    this.#emitter.emit(event);
  }
}

/** Freezes a JSON copy all the way down, so a record's `details` cannot change either. */
function deepFreeze(value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
