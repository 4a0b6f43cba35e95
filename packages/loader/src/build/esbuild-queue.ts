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
import { esbuildContextHash } from "../compile/compiler-version.js";
import { checkMember, checkMemo } from "../compile/current-member.js";
import type { Esbuild, EsbuildBatch } from "../compile/esbuild-batch.js";
import { findTsconfig } from "../compile/find-tsconfig.js";
import { remembered } from "../remembered.js";
import { buildPacks, type GroupOutcome } from "./build-packs.js";
import { packCodeCachePath, packScriptPath, packStubPath } from "./pack-script.js";
import { sweepOldPacks } from "./sweep-old-packs.js";

/** An entry's current code: a member of a pack in the cache. */
export interface CompiledMember {
  /** Identifies the member's code in this cache (a new key is new code). */
  id: string;
  /** Its pack, its place there, the ids of all the pack's members, whether `SYNC_EXPORT` evaluates it. */
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
  /** The host built the cache for its tool host: read it, never write it nor build ({@link PackMissing}). */
  readOnly?: boolean;
  /** Folders every input of a build must lie in (see `createToolBundlePlugin`); default: anywhere. */
  readRoots?: readonly string[];
  /** `false`: a stale member rejects with {@link PackMissing}, for another queue to build. */
  buildMisses?: boolean;
}

/** The cache holds no current pack for the entry, and this queue does not build: compile it some other way. */
export class PackMissing extends Error {
  constructor(entry: string) {
    super(`The prebuilt cache holds no current pack for ${entry}.`);
    this.name = "PackMissing";
  }
}

type MemberOutcome = CompiledMember | CompileFailure | PackMissing;
/** A member whose record is current, with the fresh stat prints found. */
type Current = { member: CompiledMember; prints: Record<string, string> };

/** One build asked for: a whole group, or one entry on its own (not indexed). */
interface Request {
  entries: readonly string[];
  urgent: boolean;
  resolve: (outcome: GroupOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * The esbuild side of one load batch. Each member is checked once against its group's index
 * (see `checkMember`); a complete group with a stale member is built again whole. A member
 * asked for before its group is complete is served from the index when current, else waits for
 * its group. Builds asked for in one turn of the event loop are one esbuild build; while one
 * runs, groups that nothing waits for yet join the next one.
 */
export class EsbuildQueue {
  readonly #cacheDir: string;
  readonly #batch: Pick<EsbuildBatch, "esbuild">;
  readonly #groups: EntryGroups | undefined;
  readonly #options: QueueOptions;
  readonly #context = esbuildContextHash();
  readonly #memo = checkMemo();
  readonly #alone = new Map<string, EntryGroup>();
  /** Per group's first entry: its index as read (`undefined`: none, or of another context). */
  readonly #indexes = new Map<string, GroupIndex | undefined>();
  readonly #current = new Map<string, Promise<Current | undefined>>();
  readonly #checked = new Map<EntryGroup, Promise<Map<string, MemberOutcome>>>();
  readonly #planned = new Set<EntryGroup>();
  /** Indexes to write again with fresh stat fingerprints when the batch ends. */
  readonly #refreshed = new Map<string, GroupIndex>();
  /** Packs an index no longer names, and packs built apart: removed when the batch ends. */
  readonly #stale = new Set<string>();
  readonly #pending: Request[] = [];
  readonly #inFlight = new Map<readonly string[], Request>();
  readonly #checking = new Set<Promise<unknown>>();
  readonly #background = new Set<Promise<unknown>>();
  #building = 0;
  #missed = false;
  #flushQueued = false;
  #wrote = false;

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
   * Entries the batch will ask for, in order. Once the cache has missed, each group is checked as
   * soon as complete, so its misses build while earlier modules evaluate; on a warm start, when asked for.
   */
  plan(entries: readonly string[]): void {
    for (const group of entries.map((entry) => this.#groupOf(entry))) {
      if (this.#planned.has(group)) continue;
      this.#planned.add(group);
      if (this.#missed) this.#checkWhenComplete(group);
    }
  }

  /** The entry's current code, from the cache or built. Rejects with `CompileFailure`, `CacheWriteError` or `PackMissing`. */
  async compile(entry: string): Promise<CompiledMember> {
    const group = this.#groupOf(entry);
    if (!group.closed) {
      // A warm start need not wait for discovery; a miss waits for its group (built once).
      const current = await this.#track(this.#currentMember(entry, group), this.#checking);
      if (current !== undefined) return current.member;
      this.#miss();
      await group.complete;
    }
    const request = this.#inFlight.get(group.entries);
    if (request !== undefined && !request.urgent) {
      request.urgent = true; // the load waits for it: not held for a running build
      this.#flushSoon();
    }
    return memberOf(await this.#check(group, true), entry);
  }

  /** The entry built into a pack of its own, not indexed: to evaluate it apart from its group's pack. */
  async alone(entry: string): Promise<CompiledMember> {
    if (this.#options.readOnly) throw new PackMissing(entry);
    const member = memberOf(this.#built([entry], await this.#request([entry], true)).members, entry);
    this.#stale.add(member.pack.id);
    return member;
  }

  /**
   * Waits for running builds; writes fresh fingerprints, removes the packs this batch replaced
   * or built apart (imported by now) and, when it wrote a pack, those not written for 30 days.
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
    const named = new Set(
      [...this.#indexes.values()].flatMap((index) => index?.members ?? []).map((r) => r.pack),
    );
    for (const id of this.#stale) {
      if (named.has(id)) continue;
      const path = packPath(this.#cacheDir, id);
      for (const file of [
        path,
        packMapPath(this.#cacheDir, id),
        packStubPath(path),
        packScriptPath(path),
        packCodeCachePath(path),
      ])
        rmSync(file, { force: true });
    }
    this.#stale.clear();
    if (this.#wrote) sweepOldPacks(this.#cacheDir);
  }

  #groupOf(entry: string): EntryGroup {
    const group = this.#groups?.groupOf(entry) ?? this.#alone.get(entry);
    if (group !== undefined) return group;
    const alone = { entries: [entry], closed: true, complete: Promise.resolve() };
    this.#alone.set(entry, alone);
    return alone;
  }

  #index(first: string): GroupIndex | undefined {
    if (!this.#indexes.has(first)) {
      const index = readGroupIndex(this.#cacheDir, first);
      this.#indexes.set(first, index?.context === this.#context ? index : undefined);
    }
    return this.#indexes.get(first);
  }

  /** The entry's member when its group's index holds a current record of it (checked once). */
  #currentMember(entry: string, group: EntryGroup): Promise<Current | undefined> {
    return remembered(this.#current, entry, async () => {
      const index = this.#index(group.entries[0] as string);
      const record = index?.members.find((member) => member.entry === entry);
      const prints = record && (await checkMember(this.#cacheDir, record, this.#memo));
      if (index === undefined || record === undefined || prints === undefined) return undefined;
      return { member: this.#member(record, index.members, true), prints };
    });
  }

  #checkWhenComplete(group: EntryGroup): void {
    group.complete.then(() => this.#check(group, false)).catch(() => {}); // may never be asked for
  }

  #check(group: EntryGroup, urgent: boolean): Promise<Map<string, MemberOutcome>> {
    return remembered(this.#checked, group, () => this.#group(group, urgent));
  }

  /** A member was stale: from now on every group is checked (and built) as soon as complete. */
  #miss(): void {
    if (this.#missed) return;
    this.#missed = true;
    for (const group of this.#planned) this.#checkWhenComplete(group);
  }

  /** A complete group's members: all from the cache when current, else the group built again. */
  async #group(group: EntryGroup, urgent: boolean): Promise<Map<string, MemberOutcome>> {
    const { entries } = group;
    const first = entries[0] as string;
    const index = this.#index(first);
    const check = Promise.all(entries.map((entry) => this.#currentMember(entry, group)));
    const current = await this.#track(check, this.#checking);
    if (index?.members.length === entries.length && current.every((each) => each !== undefined)) {
      const prints: Record<string, string> = Object.assign({}, ...current.map((each) => each?.prints));
      if (Object.keys(prints).length > 0) this.#refresh(first, index, prints);
      return new Map(entries.map((entry, at) => [entry, current[at]?.member as CompiledMember]));
    }
    this.#miss();
    // A stale group's current members keep their pack (hence their one evaluation in this process).
    if (this.#options.readOnly || this.#options.buildMisses === false)
      return new Map(entries.map((entry, at) => [entry, current[at]?.member ?? new PackMissing(entry)]));
    const { records, members } = this.#built(entries, await this.#request(entries, urgent));
    try {
      writeGroupIndex(this.#cacheDir, first, { context: this.#context, members: records });
    } catch (error) {
      throw new CacheWriteError(this.#cacheDir, { cause: error });
    }
    this.#indexes.set(first, { context: this.#context, members: records });
    for (const record of index?.members ?? []) this.#stale.add(record.pack); // kept when named again
    return members;
  }

  #built(entries: readonly string[], outcome: GroupOutcome) {
    const built = entries.flatMap((entry) => outcome.get(entry) ?? []);
    const records = built.filter((each): each is MemberRecord => !(each instanceof CompileFailure));
    const members = new Map<string, CompiledMember | CompileFailure>();
    for (const [entry, each] of outcome)
      members.set(entry, each instanceof CompileFailure ? each : this.#member(each, records, false));
    return { records, members };
  }

  /** A record as a compiled member, with the ids of its pack's members (from `records`). */
  #member(record: MemberRecord, records: readonly MemberRecord[], fromCache: boolean): CompiledMember {
    const id = (of: MemberRecord) => `${this.#cacheDir}\0${of.key}`;
    const members: string[] = [];
    for (const other of records) if (other.pack === record.pack) members[other.index] = id(other);
    const path = packPath(this.#cacheDir, record.pack);
    return {
      id: id(record),
      pack: { id: record.pack, path, index: record.index, members, sync: record.sync === true },
      fromCache,
    };
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
      const esbuild = await this.#batch.esbuild();
      // Entries on their own build beside the groups: the first module is not held for the others.
      const alone = requests.filter((request) => request.entries.length === 1);
      const groups = requests.filter((request) => request.entries.length > 1);
      await Promise.all([this.#build(esbuild, alone), this.#build(esbuild, groups)]);
    } catch (error) {
      for (const request of requests) request.reject(error); // no esbuild for this platform
    } finally {
      for (const request of requests) this.#inFlight.delete(request.entries);
      this.#building -= 1;
      if (this.#pending.length > 0) this.#flushSoon();
    }
  }

  async #build(esbuild: Esbuild, requests: Request[]): Promise<void> {
    if (requests.length === 0) return;
    try {
      const groups = requests.map((request) => request.entries);
      const outcomes = await buildPacks(esbuild, groups, {
        cacheDir: this.#cacheDir,
        context: this.#context,
        tsconfigOf: (entry) => findTsconfig(entry, this.#memo.tsconfigs),
        readRoots: this.#options.readRoots,
      });
      this.#wrote = true;
      for (const [at, request] of requests.entries()) request.resolve(outcomes[at] as GroupOutcome);
    } catch (error) {
      for (const request of requests) request.reject(error); // not a module's fault
    }
  }

  #track<T>(work: Promise<T>, set: Set<Promise<unknown>> = this.#background): Promise<T> {
    set.add(work);
    const untrack = () => set.delete(work);
    work.then(untrack, untrack);
    return work;
  }
}

/** The compiled member of `entry`, or its failure thrown. */
function memberOf(members: Map<string, MemberOutcome>, entry: string): CompiledMember {
  const member = members.get(entry);
  if (member === undefined) throw new CompileFailure(`esbuild returned no output for ${entry}`, {});
  if (member instanceof CompileFailure || member instanceof PackMissing) throw member;
  return member;
}
