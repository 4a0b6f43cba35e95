import { type CustomToolDurableAction, type CustomToolPendingAction, TooldockError } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { SafeEmitter } from "../util/safe-emitter.js";
import { checkCallbackTimeout, DEFAULT_CALLBACK_TIMEOUT_MS } from "./callback-deadline.js";
import { discardEntry } from "./discard-top-action.js";
import { findHandler, refusedInProcess } from "./entry-callbacks.js";
import {
  type JournalMove,
  type JournalRecord,
  type JournalTransition,
  mayBeRunning,
  moveTo,
  type PendingActionJournal,
  type ProcessIdentity,
  THIS_PROCESS,
} from "./journal/pending-journal.js";
import type {
  PendingActionEvent,
  PendingActionListener,
  PendingActionRecord,
} from "./pending-action-record.js";
import { appliedByAnotherStore, applyRunsHere } from "./running-applies.js";
import { deepFreeze, snapshotPendingAction } from "./snapshot-pending-action.js";
import {
  leftElsewhere,
  noteRecordStore,
  type PendingEntry,
  registerStoreInternals,
  type StoreInternals,
} from "./store-internals.js";

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
  /**
   * Where the actions are kept so that they outlive this process (see `openSqliteJournal`),
   * with `sessionId`; open such a store with {@link PendingActionStore.open}, which reads
   * the session's actions back. Default: none, the actions live in this process only.
   */
  journal?: PendingActionJournal;
  /** The session whose actions the store holds in `journal`. Required with `journal`. */
  sessionId?: string;
  /** This process as durable records name it (tests make several). Default: this process. */
  process?: ProcessIdentity;
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
  /**
   * A store whose actions live in `journal` under `sessionId`, with the session's actions
   * read back (a restart, or another process): durable actions are bound to the handlers of
   * the tools the session loads; a callback action of another process can only be
   * discarded, or is reported lost once that process has ended; an action whose apply was cut
   * off by the end of its process comes back `interrupted`, and is never applied again.
   *
   * @example
   * ```ts
   * const journal = openSqliteJournal("/var/lib/chat/pending.db");
   * const pending = await PendingActionStore.open(journal, "chat-42");
   * const session = new Session({ sessionId: "chat-42", pending });
   * ```
   */
  static async open(
    journal: PendingActionJournal,
    sessionId: string,
    options: Omit<PendingActionStoreOptions, "journal" | "sessionId"> = {},
  ): Promise<PendingActionStore> {
    const store = new PendingActionStore({ ...options, journal, sessionId });
    await store.#sync();
    return store;
  }

  readonly #entries: PendingEntry[] = [];
  readonly #journal: PendingActionJournal | undefined;
  readonly #sessionId: string | undefined;
  readonly #process: ProcessIdentity;
  readonly #internals: StoreInternals;
  /** Journal writes started by `push`, `pop` and `remove` (synchronous methods), not yet settled. */
  readonly #writes = new Set<Promise<unknown>>();
  /** The first journal write of those that failed, reported by the next resolve. */
  #writeFailure: { error: unknown } | undefined;
  /** Actions the journal failed to keep when they were pushed (taken off the stack), for `flush`. */
  #unkept: Array<{ record: PendingActionRecord; error: unknown }> = [];
  /**
   * The last stage write while it runs (settled either way): the next stage waits for it, and
   * so does every move (of a record it may be staging).
   */
  #lastStage: Promise<void> | undefined;
  /** The id of the entry a resolve took off the stack and has not put back (a read keeps it off). */
  #inHand: string | undefined;
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
    if (options.journal !== undefined && (typeof options.sessionId !== "string" || options.sessionId === ""))
      throw new TypeError("PendingActionStore: a journal needs the sessionId whose actions it keeps.");
    this.#journal = options.journal;
    this.#sessionId = options.sessionId;
    this.#process = options.process ?? THIS_PROCESS;
    const callbackTimeoutMs = this.#callbackTimeoutMs;
    const entries = this.#entries;
    const store = this;
    this.#internals = {
      take: () => {
        const entry = entries.pop();
        this.#inHand = entry?.record.id;
        return entry;
      },
      restore: (entry) => {
        if (this.#inHand === entry.record.id) this.#inHand = undefined;
        entries.push(entry);
      },
      letGo: () => {
        this.#inHand = undefined;
      },
      get held() {
        return store.#inHand;
      },
      emit: (event) => this.#emit(event),
      get clearCount() {
        return store.#clearCount;
      },
      resolving: false,
      callbackTimeoutMs,
      binding: undefined,
      process: this.#process,
      mayRun: (owner) => this.#mayRun(owner),
      move: (entry, move) => this.#move(entry, move),
      sync: (whenEmpty) => (this.#journal === undefined ? undefined : this.#sync(whenEmpty)),
      flushing: (records) => (this.#unflushed ? this.#flush(records) : undefined),
    };
    registerStoreInternals(this, this.#internals);
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
  push(
    action: CustomToolPendingAction | CustomToolDurableAction,
    options: PushOptions = {},
  ): PendingActionRecord {
    const snapshot = snapshotPendingAction(action);
    const sourceToolName = snapshot.sourceToolName ?? options.sourceToolName ?? DEFAULT_SOURCE_TOOL_NAME;
    // A durable action runs a handler of the tool that stages it, never another tool's.
    if (
      snapshot.form === "data" &&
      options.sourceToolName !== undefined &&
      snapshot.sourceToolName !== undefined &&
      snapshot.sourceToolName !== options.sourceToolName
    )
      throw new TooldockError(
        "E_INVALID_PENDING_ACTION",
        `Invalid pending action: the tool ${JSON.stringify(options.sourceToolName)} staged a durable action naming the tool ${JSON.stringify(snapshot.sourceToolName)} (label ${JSON.stringify(snapshot.label)}); a durable action runs a handler of the tool that stages it. Leave sourceToolName out.`,
      );
    if (
      snapshot.form === "data" &&
      this.#internals.binding !== undefined &&
      findHandler(this.#internals, sourceToolName, snapshot.handler) === undefined
    )
      throw new TooldockError(
        "E_INVALID_PENDING_ACTION",
        `Invalid pending action: the tool ${JSON.stringify(sourceToolName)} declares no action handler ${JSON.stringify(snapshot.handler)} (label ${JSON.stringify(snapshot.label)}). Declare it in the tool's actions: { ${snapshot.handler}: { apply(payload, reason, ctx) { … } } }.`,
      );
    const fields: PendingActionRecord = {
      id: this.#createId(),
      label: snapshot.label,
      sourceToolName,
      details: deepFreeze(snapshot.details),
      createdAt: this.#now(),
    };
    if (snapshot.form === "data") {
      fields.handler = snapshot.handler;
      fields.payload = snapshot.payload;
      if (snapshot.isolated === true) fields.isolated = true;
    }
    const record = Object.freeze(fields);
    // A durable action keeps the folder it was planned in (the session's), for wherever it runs.
    const cwd = this.#internals.binding?.context.cwd;
    const kept =
      snapshot.form === "data" && cwd !== undefined ? Object.freeze({ ...snapshot, cwd }) : snapshot;
    const entry: PendingEntry = Object.freeze({ record, action: kept });
    if (this.#journal !== undefined) this.#stage(entry); // throws when the store refuses it: nothing pushed
    this.#entries.push(entry);
    noteRecordStore(record, this);
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
    this.#write(entry, "discarded", "removed by pop()");
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
    this.#write(entry, "lost", reason);
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
   * rejects. A durable action a tool staged in a tool host whose handler here runs in this
   * process (`SessionOptions.isolatedActionsInProcess`) stays where it is, pending: nothing of
   * it runs, and no event is sent for it.
   */
  async clear(reason: string, options: ClearOptions = {}): Promise<void> {
    const timeoutMs =
      options.timeoutMs === undefined
        ? this.#callbackTimeoutMs
        : checkCallbackTimeout("clear option timeoutMs", options.timeoutMs);
    this.#clearCount += 1;
    const discarded: PendingEntry[] = [];
    for (const entry of this.#entries.splice(0))
      (refusedInProcess(this.#internals, entry) ? this.#entries : discarded).push(entry);
    await this.#discardAll(discarded.reverse(), reason, timeoutMs);
  }

  /**
   * Lets go of the stack at the end of this process's use of it (a `Session`'s `dispose()`
   * calls it). Without a journal it is {@link clear}. With one, the actions that can outlive
   * this process stay pending in the journal for the next one (durable actions, another
   * process's, interrupted ones: taken off this stack without a callback or an event), and
   * this process's callback actions, which cannot, are discarded as `clear` discards them.
   */
  async release(reason: string, options: ClearOptions = {}): Promise<void> {
    if (this.#journal === undefined) return this.clear(reason, options);
    const timeoutMs =
      options.timeoutMs === undefined
        ? this.#callbackTimeoutMs
        : checkCallbackTimeout("release option timeoutMs", options.timeoutMs);
    // Not counted as a clear: an apply running now keeps its record (pending again if it fails).
    const entries = this.#entries.splice(0).reverse();
    await this.#discardAll(
      entries.filter((entry) => entry.action.form === "closure" && entry.interrupted !== true),
      reason,
      timeoutMs,
    );
    await this.#settleWrites();
  }

  /**
   * Discards `entries` (taken off the stack, top first) side by side: one after another,
   * 1,000 slow rejects kept a dispose() for 151 s. A durable store that fails leaves the action
   * pending there; its event says so. One another process resolved first leaves as a read of
   * the store would have taken it off.
   */
  async #discardAll(entries: PendingEntry[], reason: string, timeoutMs: number): Promise<void> {
    await Promise.all(
      entries.map((entry) =>
        discardEntry(this.#internals, entry, reason, timeoutMs).then(
          (outcome) => {
            if (outcome.kind !== "elsewhere") return;
            // No record to discard: the store failed to keep it, or another process resolved it.
            const unkept = this.#unkept.find((failure) => failure.record === entry.record);
            if (unkept === undefined) leftElsewhere(this.#internals.emit, entry);
            else
              this.#emit({
                type: "action-discarded",
                record: entry.record,
                reason: notKept(unkept.error),
                error: unkept.error,
              });
          },
          (error: unknown) => {
            this.#emit({
              type: "action-discarded",
              record: entry.record,
              reason: unrecorded(reason, error),
              error,
            });
          },
        ),
      ),
    );
  }

  /** Waits for the journal writes of `push`, `pop` and `remove` still running. */
  async #settleWrites(): Promise<void> {
    while (this.#writes.size > 0) await Promise.all([...this.#writes]);
  }

  /**
   * Brings the stack in line with the journal: what other processes staged, resolved or left
   * interrupted since this process last read it (at `open`, or when a resolve found its stack
   * stale). A server whose conversation may be served by several processes calls it when a
   * turn starts, so that steering sees another process's preview. Nothing to do without a
   * journal. Rejects with a `TooldockError` (`E_PENDING_STORE`) when the journal fails.
   */
  async refresh(): Promise<void> {
    if (this.#journal === undefined) return;
    try {
      await this.#sync();
    } catch (error) {
      if (TooldockError.isInstance(error)) throw error;
      throw new TooldockError(
        "E_PENDING_STORE",
        `The durable store could not be read: ${describeError(error)}. The stack shown is the one read last.`,
      );
    }
  }

  /**
   * The history of this store's session as its journal keeps it (staged, applied, apply
   * failed, discarded, lost, interrupted: each with its time, reason and process), oldest
   * first, or with `actionId` the steps of that one action of it; empty without a journal.
   */
  async history(filter: { actionId?: string } = {}): Promise<readonly JournalTransition[]> {
    if (this.#journal === undefined || this.#sessionId === undefined) return [];
    return await this.#journal.history({ ...filter, sessionId: this.#sessionId });
  }

  /** Adds the entry's record to the journal; a journal that refuses it throws `E_PENDING_STORE`. */
  #stage(entry: PendingEntry): void {
    const journal = this.#journal as PendingActionJournal;
    const { record, action } = entry;
    const stored: JournalRecord = {
      id: record.id,
      sessionId: this.#sessionId as string,
      state: "pending",
      label: record.label,
      sourceToolName: record.sourceToolName,
      details: record.details,
      createdAt: record.createdAt,
      form: action.form === "data" ? "data" : "closure",
      handler: record.handler,
      payload: record.payload,
      cwd: action.form === "data" ? action.cwd : undefined,
      isolated: record.isolated,
      owner: this.#process,
    };
    let staged: unknown;
    // One stage after the other: the store numbers records as they arrive, and two stages sent
    // at once (a pool, two connections) could arrive in the other order (LIFO reversed).
    const previous = this.#lastStage;
    try {
      staged =
        previous === undefined
          ? journal.stage(stored, this.#process)
          : previous.then(() => journal.stage(stored, this.#process));
    } catch (error) {
      throw new TooldockError(
        "E_PENDING_STORE",
        `The pending action ${JSON.stringify(record.label)} could not be kept in the durable store: ${describeError(error)}. Nothing was staged; try again once the store is reachable.`,
      );
    }
    if (!(staged instanceof Promise)) return;
    // Kept later: until then the action is on this stack only. A journal that fails takes it
    // off (an action-discarded event), and `flush` (a session's tool call awaits it) says so.
    const settled = staged.then(
      () => undefined,
      () => undefined,
    );
    this.#lastStage = settled;
    settled.then(() => {
      if (this.#lastStage === settled) this.#lastStage = undefined;
    });
    this.#track(staged, (error) => {
      this.#unkept.push({ record, error });
      // Taken off meanwhile (`pop`, `remove`, `clear`): that one tells its listeners.
      const index = this.#entries.indexOf(entry);
      if (index === -1) return;
      this.#entries.splice(index, 1);
      this.#emit({ type: "action-discarded", record, reason: notKept(error), error });
    });
  }

  /**
   * Waits until the durable store has kept every action pushed so far and recorded every
   * `pop` and `remove` (at once without a journal, or with a synchronous one such as
   * SQLite). Rejects with a `TooldockError` (`E_PENDING_STORE`) naming the actions the store
   * failed to keep: those were taken off the stack (with an `action-discarded` event), so
   * nothing is pending that another process, or this one after a restart, would not see. A
   * `Session` awaits it before answering a tool call that staged an action.
   */
  flush(): Promise<void> {
    return this.#flush(undefined);
  }

  /** `flush`, reporting only the failures of `records` when given (a call's own). */
  async #flush(records: readonly PendingActionRecord[] | undefined): Promise<void> {
    await this.#settleWrites();
    const mine = (failure: { record: PendingActionRecord }) =>
      records === undefined || records.includes(failure.record);
    const unkept = this.#unkept.filter(mine);
    if (unkept.length === 0) return;
    this.#unkept = this.#unkept.filter((failure) => !mine(failure));
    throw new TooldockError(
      "E_PENDING_STORE",
      `The durable store could not keep ${unkept.length === 1 ? "the pending action" : `${unkept.length} pending actions`} ${unkept
        .map(({ record, error }) => `${JSON.stringify(record.label)} (${describeError(error)})`)
        .join(
          ", ",
        )}; ${unkept.length === 1 ? "it was" : "they were"} not staged, and nothing will change. Try again once the store is reachable.`,
    );
  }

  /** True while journal writes started by `push`, `pop` or `remove` run, or a failed one is unreported. */
  get #unflushed(): boolean {
    return this.#writes.size > 0 || this.#unkept.length > 0;
  }

  /**
   * Records a removal made by a synchronous method (`pop`, `remove`) in the journal. A record
   * that did not move was resolved elsewhere (another process or Session), or never kept
   * (`flush` says so): the removal stands, nothing to report.
   */
  #write(entry: PendingEntry, to: "discarded" | "lost", reason: string): void {
    if (this.#journal === undefined) return;
    const from = entry.interrupted === true ? "interrupted" : "pending";
    const move = moveTo(this.#internals, to, reason, undefined, from);
    // One this process left `applying` (its apply timed out) is removed too, unless another
    // store of this process applies it now (as a discard, see `discardEntry`).
    const removal =
      from === "pending" && !appliedByAnotherStore(this.#internals, entry.record.id)
        ? { ...move, from: ["pending", "applying"] as const, applyingOwner: this.#process }
        : move;
    try {
      const moved = this.#internals.move(entry, removal);
      if (moved instanceof Promise) this.#track(moved);
    } catch (error) {
      this.#writeFailure ??= { error };
    }
  }

  #track(write: Promise<unknown>, onError?: (error: unknown) => void): void {
    const tracked = write.then(
      () => undefined,
      (error: unknown) => {
        if (onError === undefined) this.#writeFailure ??= { error };
        else onError(error);
      },
    );
    this.#writes.add(tracked);
    tracked.then(() => this.#writes.delete(tracked));
  }

  /**
   * Brings the stack in line with the journal: records other processes staged are added
   * (durable ones runnable here, callback ones as another process's, an apply cut off by the
   * end of its process as interrupted), records resolved elsewhere are dropped; this
   * process's own entries keep their callbacks. With `whenEmpty`, reads the journal only when
   * the stack is empty; resolves to whether it read. Throws when the journal fails, or when
   * an earlier write failed (its record may be missing from the store).
   */
  async #sync(whenEmpty = false): Promise<boolean> {
    const journal = this.#journal;
    if (journal === undefined) return false;
    await this.#settleWrites();
    if (this.#writeFailure !== undefined) {
      const { error } = this.#writeFailure;
      this.#writeFailure = undefined;
      throw new TooldockError(
        "E_PENDING_STORE",
        `The durable store failed to record a pending action earlier: ${describeError(error)}. The stack shown may differ from the store's.`,
      );
    }
    if (whenEmpty && this.#entries.length > 0) return false;
    // What this stack holds now, and the clears so far: a push, a pop or a clear while the
    // journal answers is kept as it happened (the journal's answer is older).
    const before = new Set(this.#entries.map((entry) => entry.record.id));
    const clears = this.#clearCount;
    const records = await journal.open(this.#sessionId as string);
    if (this.#clearCount !== clears) return true;
    const mine = new Map(this.#entries.map((entry) => [entry.record.id, entry]));
    const next: PendingEntry[] = [];
    for (const stored of records) {
      // The entry a resolve holds: it comes back through the resolve, not through this read.
      if (stored.id === this.#inHand) continue;
      const own = mine.get(stored.id);
      if (own === undefined && before.has(stored.id)) continue; // popped or removed meanwhile
      if (stored.state === "applying") {
        // This stack's own, left applying by an apply of this process that timed out: it stays
        // (it may be applied again or discarded here).
        if (own !== undefined && stored.owner.token === this.#process.token) {
          next.push(own);
          continue;
        }
        // Being applied here or by a process that may still run it: not on the stack. One this
        // process left applying with no apply running any more (it timed out, then its store
        // was disposed) has no outcome anyone will record: interrupted, as after a crash.
        const ownProcess = stored.owner.token === this.#process.token;
        if (ownProcess ? applyRunsHere(stored.id) : await this.#mayRun(stored.owner)) continue;
        const moved = await journal.move(stored.id, {
          from: ["applying"],
          to: "interrupted",
          // Only while the process that was seen applying it still holds it: another may have
          // taken it since (its apply failed, the record went back, a third process claimed it).
          applyingOwner: stored.owner,
          transition: {
            kind: "interrupted",
            at: Date.now(),
            reason: ownProcess
              ? "its apply timed out in this process and ended without its outcome recorded"
              : `its process (pid ${stored.owner.pid} on ${stored.owner.host}) ended while applying it`,
            process: this.#process,
          },
        });
        if (!moved) continue;
        next.push(restoredEntry({ ...stored, state: "interrupted" }, this.#process));
        continue;
      }
      if (own !== undefined && own.interrupted !== true && stored.state === "pending") next.push(own);
      else if (own?.action.form === "closure")
        // This stack's own, recorded interrupted elsewhere: never run again, but still its own,
        // so that its listeners, who heard it staged, hear it leave (see `leftElsewhere`).
        next.push(Object.freeze({ ...restoredEntry(stored, this.#process), action: own.action }));
      else next.push(restoredEntry(stored, this.#process));
    }
    // The liveness and interrupted moves above were awaited: a clear, a pop or a resolve that
    // took an entry meanwhile stands too (else a resolved action came back on the stack).
    if (this.#clearCount !== clears) return true;
    const onStack = new Set(this.#entries.map((entry) => entry.record.id));
    const stays = (entry: PendingEntry) =>
      entry.record.id !== this.#inHand && (!mine.has(entry.record.id) || onStack.has(entry.record.id));
    const kept = next.filter(stays);
    // Pushed while the journal answered: newer than what it read, so on top.
    const listed = new Set(kept.map((entry) => entry.record.id));
    for (const entry of this.#entries)
      if (!before.has(entry.record.id) && !listed.has(entry.record.id)) kept.push(entry);
    this.#entries.splice(0, this.#entries.length, ...kept);
    const keptIds = new Set(kept.map((entry) => entry.record.id));
    for (const entry of mine.values())
      if (onStack.has(entry.record.id) && !keptIds.has(entry.record.id))
        leftElsewhere(this.#internals.emit, entry);
    return true;
  }

  /**
   * Moves the entry's record in the journal (`true` at once without one), after the stages
   * still running: a pool sends them on different connections, and a move that overtook its
   * record's stage would find no record while the stage then adds a pending one.
   */
  #move(entry: PendingEntry, move: JournalMove): boolean | Promise<boolean> {
    const journal = this.#journal;
    if (journal === undefined) return true;
    const staging = this.#lastStage;
    if (staging === undefined) return journal.move(entry.record.id, move);
    return staging.then(() => journal.move(entry.record.id, move));
  }

  /**
   * Whether the process `owner` may still run: the journal is asked first when it can tell
   * (PostgreSQL's liveness lock: a pid may be another container's with the same hostname, or
   * reused); otherwise, or when it fails to answer, this host's pids are asked, and a process
   * on another host is taken for running.
   */
  #mayRun(owner: ProcessIdentity): boolean | Promise<boolean> {
    if (owner.token === this.#process.token) return true;
    const byPid = () => mayBeRunning(owner, this.#process);
    const journal = this.#journal;
    if (journal?.processAlive === undefined) return byPid();
    const told = (alive: boolean | undefined) => (typeof alive === "boolean" ? alive : byPid());
    try {
      const alive = journal.processAlive(owner);
      return alive instanceof Promise ? alive.then(told, byPid) : told(alive);
    } catch {
      return byPid();
    }
  }

  /** Adds a listener; returns the function that removes this subscription (see `Session.subscribe`). */
  subscribe(listener: PendingActionListener): () => void {
    return this.#emitter.subscribe(listener);
  }

  #emit(event: PendingActionEvent): void {
    this.#emitter.emit(event);
  }
}

/** The reason of an action taken off the stack because the durable store failed to keep it. */
function notKept(error: unknown): string {
  return `not kept: the durable store failed (${describeError(error)})`;
}

/** The reason of a discard the durable store could not record. */
function unrecorded(reason: string, error: unknown): string {
  return `${reason} (the durable store could not record it, so it stays pending there: ${describeError(error)})`;
}

/** A stack entry for a record read from a journal. */
function restoredEntry(stored: JournalRecord, self: ProcessIdentity): PendingEntry {
  const fields: PendingActionRecord = {
    id: stored.id,
    label: stored.label,
    sourceToolName: stored.sourceToolName,
    details: deepFreeze(stored.details),
    createdAt: stored.createdAt,
  };
  if (stored.form === "data") {
    fields.handler = stored.handler ?? "";
    fields.payload = deepFreeze(stored.payload);
    if (stored.isolated === true) fields.isolated = true;
  } else if (stored.owner.token !== self.token) {
    fields.stagedBy = { host: stored.owner.host, pid: stored.owner.pid };
  }
  const interrupted = stored.state === "interrupted";
  if (interrupted) fields.interrupted = true;
  const record = Object.freeze(fields);
  const action: PendingEntry["action"] =
    stored.form === "data"
      ? Object.freeze({
          form: "data",
          label: stored.label,
          sourceToolName: stored.sourceToolName,
          details: record.details,
          handler: record.handler as string,
          payload: record.payload,
          cwd: stored.cwd,
          ...(record.isolated === true ? { isolated: true as const } : {}),
        })
      : Object.freeze({ form: "foreign", owner: stored.owner });
  return Object.freeze(interrupted ? { record, action, interrupted } : { record, action });
}
