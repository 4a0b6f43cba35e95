import type { CustomToolPendingAction } from "@tooldock/sdk";
import { SafeEmitter } from "../util/safe-emitter.js";
import { assertPendingAction } from "./assert-pending-action.js";
import type {
  PendingActionEvent,
  PendingActionListener,
  PendingActionRecord,
} from "./pending-action-record.js";
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
}

/**
 * The LIFO stack of previewed changes awaiting `apply` or `discard` (SPEC §3).
 *
 * Records (`id`, `label`, `sourceToolName`, `details`, `createdAt`) are public; the
 * callbacks stay inside and only the `resolve` tool (and `clear`) run them.
 *
 * @example
 * ```ts
 * const store = new PendingActionStore();
 * store.subscribe((event) => log(event.type, event.record.label));
 * store.push({ label: "Rename 3 file(s)", apply: async () => textResult("Renamed") });
 * store.peek()?.label; // "Rename 3 file(s)"
 * ```
 */
export class PendingActionStore {
  readonly #entries: PendingEntry[] = [];
  readonly #now: () => number;
  readonly #createId: () => string;
  readonly #emitter: SafeEmitter<PendingActionEvent>;
  #clearCount = 0;

  constructor(options: PendingActionStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#createId = options.createId ?? (() => globalThis.crypto.randomUUID());
    this.#emitter = new SafeEmitter(options.onListenerError ?? (() => {}));
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
    });
  }

  /**
   * Puts a new action on top and returns its record. Throws a `TooldockError`
   * (`E_INVALID_PENDING_ACTION`) when the action has no label or no `apply`.
   */
  push(action: CustomToolPendingAction): PendingActionRecord {
    assertPendingAction(action);
    const record: PendingActionRecord = Object.freeze({
      id: this.#createId(),
      label: action.label,
      sourceToolName: action.sourceToolName ?? DEFAULT_SOURCE_TOOL_NAME,
      details: action.details,
      createdAt: this.#now(),
    });
    this.#entries.push({ record, action });
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
   * Discards every action, top first, calling each `reject(reason)` where present. A
   * throwing `reject` does not stop the others; its error rides on the `action-discarded`
   * event.
   */
  async clear(reason: string): Promise<void> {
    this.#clearCount += 1;
    const entries = this.#entries.splice(0).reverse();
    for (const entry of entries) {
      let error: unknown;
      let failed = false;
      try {
        await entry.action.reject?.(reason);
      } catch (caught) {
        failed = true;
        error = caught;
      }
      this.#emit({ type: "action-discarded", record: entry.record, reason, ...(failed ? { error } : {}) });
    }
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: PendingActionListener): () => void {
    return this.#emitter.subscribe(listener);
  }

  #emit(event: PendingActionEvent): void {
    this.#emitter.emit(event);
  }
}
