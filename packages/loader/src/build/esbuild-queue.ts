import { rmSync } from "node:fs";
import {
  type GroupIndex,
  type MemberRecord,
  packMapPath,
  packPath,
  readGroupIndex,
  writeGroupIndex,
} from "../compile/cache-index.js";
import { CacheWriteError } from "../compile/cache-write-error.js";
import { CompileFailure } from "../compile/compile-failure.js";
import { type CheckMemo, checkMember, checkMemo } from "../compile/current-member.js";
import type { EsbuildBatch } from "../compile/esbuild-batch.js";
import { esbuildContextHash } from "../compile/esbuild-context.js";
import { findTsconfig } from "../compile/find-tsconfig.js";
import { hash } from "../compile/hash.js";
import { buildPacks, type GroupOutcome } from "./build-packs.js";
import { sweepOldPacks } from "./sweep-old-packs.js";

/** An entry's current code: a member of a pack in the cache. */
export interface CompiledMember {
  /** Identifies the member's code in this cache (a new key is new code). */
  id: string;
  /**
   * The pack's id and path, the member's place in it, the ids of all its members in order, and
   * whether the pack's synchronous function evaluates it (see `SYNC_EXPORT`).
   */
  pack: { id: string; path: string; index: number; members: string[]; sync: boolean };
  /** True when it came from the cache without running esbuild. */
  fromCache: boolean;
}

/** A group of consecutive entries that share an index and, where they can, a pack. */
export interface EntryGroup {
  readonly entries: readonly string[];
  /** True once the group holds all its entries. */
  readonly closed: boolean;
  /** Settles when the group is closed. */
  readonly complete: Promise<void>;
}

/** Which group an entry belongs to (`undefined`: not planned, a group of its own). */
export interface EntryGroups {
  groupOf(entry: string): EntryGroup | undefined;
}

/** How a queue may use its cache folder. */
export interface QueueOptions {
  /**
   * The cache was built by another process (the host, for its tool host): read it, never
   * write it, never build; an entry it holds no current pack for rejects with {@link PackMissing}.
   */
  readOnly?: boolean;
  /** Folders every input of a build must lie in (see `createToolBundlePlugin`); default: anywhere. */
  readRoots?: readonly string[];
  /**
   * Build a group whose pack is stale (the default), or reject its members with
   * {@link PackMissing} and leave the build to another queue (a load that evaluates its misses
   * file by file builds their packs once it is done).
   */
  buildMisses?: boolean;
}

/** A read-only queue's cache holds no current pack for the entry: compile it some other way. */
export class PackMissing extends Error {
  constructor(entry: string) {
    super(`The prebuilt cache holds no current pack for ${entry}.`);
    this.name = "PackMissing";
  }
}

/** What a check or a build gave an entry: its member, why it did not compile, or no current pack (not built). */
type MemberOutcome = CompiledMember | CompileFailure | PackMissing;

/** One build asked for: a whole group, or one entry on its own (not indexed). */
interface Request {
  entries: readonly string[];
  urgent: boolean;
  resolve: (outcome: GroupOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * The esbuild side of one load batch. A complete group is checked against its index (one
 * read per group, see `checkMember`) and, when a member is stale, built again whole, its packs
 * and its index written; a member asked for before its group is complete is taken from the
 * group's index when current, else built with its group once complete. Builds asked for in the
 * same turn of the event loop are one esbuild build; while one runs, groups that nothing waits
 * for yet join the next one.
 */
export class EsbuildQueue {
  readonly #cacheDir: string;
  readonly #batch: Pick<EsbuildBatch, "esbuild">;
  readonly #groups: EntryGroups | undefined;
  readonly #options: QueueOptions;
  readonly #context = esbuildContextHash();
  readonly #memo: CheckMemo = checkMemo();
  readonly #alone = new Map<string, EntryGroup>();
  readonly #checked = new Map<EntryGroup, Promise<Map<string, MemberOutcome>>>();
  readonly #loneChecks = new Map<string, Promise<CompiledMember>>();
  readonly #indexes = new Map<string, GroupIndex | undefined>();
  /** Groups whose index gets fresh stat fingerprints when the batch ends. */
  readonly #refreshed = new Map<string, GroupIndex>();
  /** Packs an index no longer names since this batch replaced it; removed when the batch ends. */
  readonly #replaced = new Set<string>();
  /** Packs built for one member apart from its group (see {@link EsbuildQueue.alone}). */
  readonly #apart = new Set<string>();
  readonly #planned = new Set<EntryGroup>();
  readonly #pending: Request[] = [];
  readonly #inFlight = new Map<readonly string[], Request>();
  readonly #checking = new Set<Promise<unknown>>();
  readonly #background = new Set<Promise<unknown>>();
  #building = 0;
  /** True once a member of this batch was stale (a cold or partly cold load). */
  #missed = false;
  #flushQueued = false;
  #wrote = false;

  /** With `groups`, entries are checked, built and indexed by group; without, each on its own. */
  constructor(
    cacheDir: string,
    batch: Pick<EsbuildBatch, "esbuild">,
    groups?: EntryGroups,
    options: QueueOptions = {},
  ) {
    this.#cacheDir = cacheDir;
    this.#batch = batch;
    this.#groups = groups;
    this.#options = options;
  }

  /**
   * Entries the batch will ask for, in order (call again as more are found). Once the cache
   * has missed, each group is checked as soon as it is complete, so its misses build while
   * earlier modules evaluate; before that (a warm start), a group is checked when asked for.
   */
  plan(entries: readonly string[]): void {
    for (const entry of entries) {
      const group = this.#groupOf(entry);
      if (this.#planned.has(group)) continue;
      this.#planned.add(group);
      if (this.#missed) this.#checkWhenComplete(group);
    }
  }

  #checkWhenComplete(group: EntryGroup): void {
    group.complete.then(() => this.#check(group, false)).then(noop, noop); // may never be asked for
  }

  /** The group's check, started once (`urgent`: the load waits for it). */
  #check(group: EntryGroup, urgent: boolean): Promise<Map<string, MemberOutcome>> {
    let checked = this.#checked.get(group);
    if (checked === undefined) {
      checked = this.#group(group, urgent);
      this.#checked.set(group, checked);
    }
    return checked;
  }

  /** A member was stale: from now on every group is checked (and built) as soon as complete. */
  #miss(): void {
    if (this.#missed) return;
    this.#missed = true;
    for (const group of this.#planned) this.#checkWhenComplete(group);
  }

  /**
   * The entry's current code: from the cache when its index proves it current, else built.
   * Rejects with `CompileFailure` or `CacheWriteError`.
   */
  async compile(entry: string): Promise<CompiledMember> {
    const group = this.#groupOf(entry);
    if (!group.closed) return this.#lone(entry, group);
    const request = this.#inFlight.get(group.entries);
    if (request !== undefined && !request.urgent) {
      request.urgent = true; // the load waits for it: not held for a running build
      this.#flushSoon();
    }
    return memberOf(await this.#check(group, true), entry);
  }

  /**
   * The entry built into a pack of its own, not indexed: for evaluating it apart from the pack
   * that holds it (that pack cannot be imported, or this process evaluated another of its
   * members already).
   */
  async alone(entry: string): Promise<CompiledMember> {
    const member = memberOf(await this.#buildAlone(entry), entry);
    this.#apart.add(member.pack.id);
    return member;
  }

  /**
   * Waits for builds and index writes still running, so none outlives the batch; then removes
   * the packs this batch replaced (its modules are imported by now), and, when it wrote a
   * pack, the packs not written for 30 days.
   */
  async settle(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
    if (this.#options.readOnly) return;
    for (const [first, index] of this.#refreshed) {
      try {
        writeGroupIndex(this.#cacheDir, first, index);
      } catch {
        // Fresh fingerprints only spare the next check its hashing.
      }
    }
    this.#refreshed.clear();
    // What the indexes on disk name now is kept; a pack built apart is imported by now.
    const named = new Set<string>();
    for (const index of this.#indexes.values())
      for (const record of index?.members ?? []) named.add(record.pack);
    for (const id of [...this.#replaced, ...this.#apart]) {
      if (named.has(id)) continue;
      rmSync(packPath(this.#cacheDir, id), { force: true });
      rmSync(packMapPath(this.#cacheDir, id), { force: true });
    }
    this.#replaced.clear();
    this.#apart.clear();
    if (this.#wrote) sweepOldPacks(this.#cacheDir);
  }

  #groupOf(entry: string): EntryGroup {
    const group = this.#groups?.groupOf(entry);
    if (group !== undefined) return group;
    let alone = this.#alone.get(entry);
    if (alone === undefined) {
      alone = { entries: [entry], closed: true, complete: Promise.resolve() };
      this.#alone.set(entry, alone);
    }
    return alone;
  }

  #index(first: string): GroupIndex | undefined {
    if (!this.#indexes.has(first)) {
      const index = readGroupIndex(this.#cacheDir, first);
      this.#indexes.set(first, index?.context === this.#context ? index : undefined);
    }
    return this.#indexes.get(first);
  }

  /** A complete group's members: all from the cache when current, else the group built again. */
  async #group(group: EntryGroup, urgent: boolean): Promise<Map<string, MemberOutcome>> {
    const first = group.entries[0] as string;
    const index = this.#index(first);
    const check = this.#checkAll(group.entries, index);
    this.#track(check, this.#checking);
    const current = await check;
    if (current !== undefined && index !== undefined) {
      if (Object.keys(current).length > 0) this.#refresh(first, index, current);
      return this.#members(index.members, true);
    }
    this.#miss();
    if (this.#options.readOnly) throw new PackMissing(first);
    if (this.#options.buildMisses === false) return this.#currentOnly(group.entries, index);
    const { records, members } = this.#built(group.entries, await this.#request(group.entries, urgent));
    try {
      writeGroupIndex(this.#cacheDir, first, { context: this.#context, members: records });
    } catch (error) {
      throw new CacheWriteError(this.#cacheDir, { cause: error });
    }
    this.#indexes.set(first, { context: this.#context, members: records });
    const named = new Set(records.map((record) => record.pack));
    for (const record of index?.members ?? []) if (!named.has(record.pack)) this.#replaced.add(record.pack);
    return members;
  }

  /**
   * A stale group's members that are current on their own, from the pack that holds them (an
   * unchanged module keeps its code, hence its one evaluation in this process), and
   * {@link PackMissing} for the others: a queue that does not build (`buildMisses: false`).
   */
  async #currentOnly(
    entries: readonly string[],
    index: GroupIndex | undefined,
  ): Promise<Map<string, MemberOutcome>> {
    const outcomes = new Map<string, MemberOutcome>();
    const indexed =
      index === undefined
        ? new Map<string, CompiledMember | CompileFailure>()
        : this.#members(index.members, true);
    for (const entry of entries) {
      const record = index?.members.find((member) => member.entry === entry);
      const member = indexed.get(entry);
      const current =
        record !== undefined &&
        member !== undefined &&
        (await checkMember(this.#cacheDir, record, this.#memo)) !== undefined;
      outcomes.set(entry, current ? (member as CompiledMember) : new PackMissing(entry));
    }
    return outcomes;
  }

  /**
   * Every entry's record in `index`, current: the fresh stat fingerprints found (path → print),
   * or `undefined` when an entry has no record or a stale one.
   */
  async #checkAll(
    entries: readonly string[],
    index: GroupIndex | undefined,
  ): Promise<Record<string, string> | undefined> {
    if (index === undefined || index.members.length !== entries.length) return undefined;
    const fresh: Record<string, string> = {};
    for (const [at, entry] of entries.entries()) {
      const record = index.members[at];
      if (record?.entry !== entry) return undefined;
      const prints = await checkMember(this.#cacheDir, record, this.#memo);
      if (prints === undefined) return undefined;
      Object.assign(fresh, prints);
    }
    return fresh;
  }

  /**
   * A member asked for before its group is complete: from the group's index when current (a
   * warm start need not wait for discovery), else with its group once complete (one build
   * per group; discovery never waits for a module, so the group completes).
   */
  #lone(entry: string, group: EntryGroup): Promise<CompiledMember> {
    let lone = this.#loneChecks.get(entry);
    if (lone === undefined) {
      lone = (async () => {
        const index = this.#index(group.entries[0] as string);
        const record = index?.members.find((member) => member.entry === entry);
        if (index !== undefined && record !== undefined) {
          const check = checkMember(this.#cacheDir, record, this.#memo);
          this.#track(check, this.#checking);
          if ((await check) !== undefined) return memberOf(this.#members(index.members, true), entry);
        }
        this.#miss();
        await group.complete;
        return this.compile(entry);
      })();
      this.#loneChecks.set(entry, lone);
    }
    return lone;
  }

  async #buildAlone(entry: string): Promise<Map<string, CompiledMember | CompileFailure>> {
    if (this.#options.readOnly) throw new PackMissing(entry);
    return this.#built([entry], await this.#request([entry], true)).members;
  }

  /** A build's outcome for `entries`: the records it wrote, and each entry's member or failure. */
  #built(
    entries: readonly string[],
    outcome: GroupOutcome,
  ): { records: MemberRecord[]; members: Map<string, CompiledMember | CompileFailure> } {
    const records: MemberRecord[] = [];
    const failures: Array<[string, CompileFailure]> = [];
    for (const entry of entries) {
      const built = outcome.get(entry);
      if (built instanceof CompileFailure) failures.push([entry, built]);
      else if (built !== undefined) records.push(built);
    }
    const members = this.#members(records, false);
    for (const [entry, failure] of failures) members.set(entry, failure);
    return { records, members };
  }

  /** Records as compiled members, with the ids of each pack's members. */
  #members(
    records: readonly MemberRecord[],
    fromCache: boolean,
  ): Map<string, CompiledMember | CompileFailure> {
    const ids = new Map<string, string[]>();
    for (const record of records) {
      const members = ids.get(record.pack) ?? [];
      members[record.index] = `${this.#cacheDir}\0${record.key}`;
      ids.set(record.pack, members);
    }
    const members = new Map<string, CompiledMember | CompileFailure>();
    for (const record of records) {
      members.set(record.entry, {
        id: `${this.#cacheDir}\0${record.key}`,
        pack: {
          id: record.pack,
          path: packPath(this.#cacheDir, record.pack),
          index: record.index,
          members: ids.get(record.pack) ?? [],
          sync: record.sync === true,
        },
        fromCache,
      });
    }
    return members;
  }

  #refresh(first: string, index: GroupIndex, prints: Record<string, string>): void {
    const members = index.members.map((record) => {
      const stats = { ...record.stats };
      for (const path of Object.keys(record.inputs))
        if (prints[path] !== undefined) stats[path] = prints[path];
      return { ...record, stats };
    });
    this.#refreshed.set(first, { ...index, members });
  }

  #request(entries: readonly string[], urgent: boolean): Promise<GroupOutcome> {
    return new Promise((resolve, reject) => {
      const request: Request = { entries, urgent, resolve, reject };
      this.#pending.push(request);
      this.#inFlight.set(entries, request);
      this.#flushSoon();
    });
  }

  /** Flushes on the next turn, unless a build runs and nothing pending is waited for. */
  #flushSoon(): void {
    if (this.#flushQueued) return;
    if (this.#building > 0 && !this.#pending.some((request) => request.urgent)) return;
    this.#flushQueued = true;
    this.#track(new Promise<void>((done) => setImmediate(() => this.#flush().then(done, done))));
  }

  async #flush(): Promise<void> {
    // Checks still running join this build with their misses.
    while (this.#checking.size > 0) await Promise.allSettled([...this.#checking]);
    this.#flushQueued = false;
    const requests = this.#pending.splice(0);
    if (requests.length === 0) return;
    this.#building += 1;
    try {
      let esbuild: Awaited<ReturnType<EsbuildBatch["esbuild"]>>;
      try {
        esbuild = await this.#batch.esbuild();
      } catch (error) {
        for (const request of requests) request.reject(error); // e.g. no esbuild for this platform
        return;
      }
      // Entries on their own build beside the groups, so the first module (a group of one) is
      // not held for the packs of the others.
      const alone = requests.filter((request) => request.entries.length === 1);
      const groups = requests.filter((request) => request.entries.length > 1);
      await Promise.all([this.#build(esbuild, alone), this.#build(esbuild, groups)]);
    } finally {
      for (const request of requests) this.#inFlight.delete(request.entries);
      this.#building -= 1;
      if (this.#pending.length > 0) this.#flushSoon();
    }
  }

  /** Builds the packs of `requests` and settles each (rejects all when esbuild fails as a whole). */
  async #build(esbuild: Awaited<ReturnType<EsbuildBatch["esbuild"]>>, requests: Request[]): Promise<void> {
    if (requests.length === 0) return;
    try {
      const outcomes = await buildPacks(
        esbuild,
        requests.map((request) => request.entries),
        {
          cacheDir: this.#cacheDir,
          context: this.#context,
          tsconfigOf: (entry) => findTsconfig(entry, hash, this.#memo.tsconfigs),
          readRoots: this.#options.readRoots,
        },
      );
      this.#wrote = true;
      for (const [at, request] of requests.entries()) request.resolve(outcomes[at] as GroupOutcome);
    } catch (error) {
      // Not a module's fault (those are outcomes): nothing of this build is left waiting.
      for (const request of requests) request.reject(error);
    }
  }

  #track(work: Promise<unknown>, set: Set<Promise<unknown>> = this.#background): void {
    set.add(work);
    const untrack = () => set.delete(work);
    work.then(untrack, untrack);
  }
}

/** The compiled member of `entry`, or its failure thrown. */
function memberOf(members: Map<string, MemberOutcome>, entry: string): CompiledMember {
  const member = members.get(entry);
  if (member === undefined) throw new CompileFailure(`esbuild returned no output for ${entry}`, {});
  if (member instanceof CompileFailure || member instanceof PackMissing) throw member;
  return member;
}

function noop(): void {}
