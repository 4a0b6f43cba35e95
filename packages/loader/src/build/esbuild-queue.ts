import { rmSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { type BuildOutcome, buildEntries } from "../compile/build-entries.js";
import { bundlePath, packPath, sourcePackKeysPath, writeBundleIndex } from "../compile/bundle-index.js";
import { CompileFailure } from "../compile/compile-failure.js";
import { findCurrentBundle } from "../compile/current-bundle.js";
import { type CompiledBundle, compiledBundle } from "./compiled-bundle.js";
import { packFromSources } from "./pack-from-sources.js";
import { sweepOldPacks } from "./pack-index.js";

export type { CompiledBundle } from "./compiled-bundle.js";

import type { EsbuildBatch } from "../compile/esbuild-batch.js";
import { esbuildContextHash } from "../compile/esbuild-context.js";
import { findTsconfig, type TsconfigMemo } from "../compile/find-tsconfig.js";
import { hash } from "../compile/hash.js";
import { mapPath, mapsDir, writeBundle } from "../compile/write-bundle.js";

interface Waiting {
  entry: string;
  resolve: (bundle: CompiledBundle) => void;
  reject: (error: unknown) => void;
}

/** One pack to build from the sources: its entries in order, and the misses among them. */
interface PackRequest {
  entries: string[];
  waiting: Waiting[];
}

/** A group of consecutive entries that share a pack (see `PackPlanner`). */
export interface EntryGroup {
  readonly entries: readonly string[];
  /** True once the group holds all its entries. */
  readonly closed: boolean;
  /** Settles when the group is closed. */
  readonly complete: Promise<void>;
}

/** Which pack group an entry belongs to (`undefined`: not planned, built on its own). */
export interface EntryGroups {
  groupOf(entry: string): EntryGroup | undefined;
}

/**
 * The esbuild side of one load batch. Each entry's cache check is synchronous file access
 * (see `findCurrentBundle`); the misses are gathered and built together: every miss asked for
 * in the same turn of the event loop, plus, once a build is needed anyway, every entry of the
 * {@link EsbuildQueue.plan | plan} not asked for yet whose cache is stale. Results are kept
 * for the batch, so an entry built ahead is handed out when it is asked for.
 */
export class EsbuildQueue {
  readonly #cacheDir: string;
  readonly #batch: Pick<EsbuildBatch, "esbuild">;
  readonly #context = esbuildContextHash();
  readonly #tsconfigs: TsconfigMemo = new Map();
  readonly #results = new Map<string, Promise<CompiledBundle>>();
  readonly #background = new Set<Promise<unknown>>();
  readonly #planned: string[] = [];
  readonly #groups: EntryGroups | undefined;
  /** Cache checks still running: a flush waits for them, so a group's misses build together. */
  readonly #checking = new Set<Promise<unknown>>();
  /** Packs no index names any more since this batch wrote their replacements. */
  readonly #replacedPacks = new Set<string>();
  /** Entries a caller asked for (not only planned): never held back for their group. */
  readonly #asked = new Set<string>();
  /** Groups packed by this batch, and groups to pack once complete (see `#repack`). */
  readonly #packedWhole = new Set<EntryGroup>();
  readonly #repackScheduled = new Set<EntryGroup>();
  /** Planned misses held until their group is complete (or until they are asked for). */
  readonly #parked = new Map<string, Waiting>();
  readonly #writtenPacks = new Set<string>();
  /** Entries whose index names a pack this batch wrote: a later build of one alone keeps it. */
  readonly #inPack = new Set<string>();
  /** Planned entries before this index have been checked (or asked for). */
  #plannedChecked = 0;
  #waiting: Waiting[] = [];
  #flushScheduled = false;
  /** True once an entry of this batch missed the cache (a cold or partly cold load). */
  #missed = false;
  /** Builds running, and whether entries planned meanwhile wait for them to end. */
  #building = 0;
  #flushAfterBuild = false;

  /**
   * With `groups`, the misses of a complete group are built as one pack straight from the
   * sources (see `buildSourcePacks`), the whole group at once; a miss whose group is not
   * complete yet waits for it. Without, every miss gets its own bundle.
   */
  constructor(cacheDir: string, batch: Pick<EsbuildBatch, "esbuild">, groups?: EntryGroups) {
    this.#cacheDir = cacheDir;
    this.#batch = batch;
    this.#groups = groups;
  }

  /**
   * Adds entries this batch will ask for (call again as more are discovered); stale ones are
   * built with the next miss.
   */
  plan(entries: readonly string[]): void {
    this.#planned.push(...entries);
    // Once the cache has missed, entries found later are checked and built as they come (each
    // complete group), while the modules found before are evaluated (esbuild runs in its own
    // process); one such build at a time, so the first one is not slowed down by the next.
    if (!this.#missed) return;
    if (this.#building > 0) this.#flushAfterBuild = true;
    else this.#schedule();
  }

  /**
   * The entry's bundle: from the cache when the index proves it current, else built (with
   * the other misses). Rejects with `CompileFailure` or `CacheWriteError`.
   */
  compile(entry: string): Promise<CompiledBundle> {
    this.#asked.add(entry);
    const parked = this.#parked.get(entry);
    if (parked !== undefined) {
      // Asked for now: built at once rather than held for its group (the load waits for it).
      this.#parked.delete(entry);
      this.#push(parked);
    }
    return this.#result(entry);
  }

  #result(entry: string): Promise<CompiledBundle> {
    let result = this.#results.get(entry);
    if (result === undefined) {
      result = this.#check(entry);
      result.then(noop, noop); // an entry built ahead may never be asked for
      this.#results.set(entry, result);
    }
    return result;
  }

  /**
   * The bundle of an entry whose code is in a pack, for importing it on its own (its pack
   * could not be imported, or this process evaluated another member of it already): built
   * now, written beside the pack without changing the entry's index (it still names the pack).
   */
  async alone(entry: string): Promise<CompiledBundle> {
    const esbuild = await this.#batch.esbuild();
    const outcome = (await buildEntries(esbuild, [entry], mapsDir(this.#cacheDir))).get(entry);
    return new Promise((resolve, reject) => this.#write({ entry, resolve, reject }, outcome, false));
  }

  /**
   * Waits for builds and index refreshes still running, so none outlives the batch; then
   * removes the packs this batch replaced (after the batch, since its modules may import them),
   * and, when it wrote a pack, the packs not written for 30 days (once a batch, not per build).
   */
  async settle(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
    for (const id of this.#replacedPacks) {
      if (this.#writtenPacks.has(id)) continue;
      rmSync(packPath(this.#cacheDir, id), { force: true });
      rmSync(mapPath(this.#cacheDir, `pack-${id}`), { force: true });
      rmSync(sourcePackKeysPath(this.#cacheDir, id), { force: true });
    }
    this.#replacedPacks.clear();
    if (this.#writtenPacks.size > 0) sweepOldPacks(this.#cacheDir);
  }

  async #check(entry: string): Promise<CompiledBundle> {
    const found = findCurrentBundle(this.#cacheDir, entry, this.#context, this.#tsconfigs);
    this.#checking.add(found);
    const checked = () => this.#checking.delete(found);
    found.then(checked, checked);
    const current = await found;
    if (current === undefined) return this.#enqueue(entry);
    if (current.refreshed !== undefined) {
      // Fresh fingerprints spare the next check its hashing; losing this write costs nothing.
      const refresh = writeBundleIndex(this.#cacheDir, current.refreshed);
      refresh.then(noop, noop);
      this.#track(refresh);
    }
    const { key, pack } = current.recorded;
    return compiledBundle(pathToFileURL(bundlePath(this.#cacheDir, key)).href, key, true, pack);
  }

  #enqueue(entry: string): Promise<CompiledBundle> {
    this.#missed = true;
    return new Promise((resolve, reject) => this.#push({ entry, resolve, reject }));
  }

  #push(waiting: Waiting): void {
    this.#waiting.push(waiting);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    this.#track(
      new Promise<void>((done) => {
        setImmediate(() => this.#flush().then(done, done));
      }),
    );
  }

  async #flush(): Promise<void> {
    this.#building += 1;
    try {
      await this.#flushOnce();
    } finally {
      this.#building -= 1;
      if (this.#building === 0 && this.#flushAfterBuild) {
        this.#flushAfterBuild = false;
        this.#schedule();
      }
    }
  }

  async #flushOnce(): Promise<void> {
    // Check the planned entries nobody asked for yet; their misses join this build (each
    // check queues itself after a microtask, so give them one turn of the event loop).
    let ahead = false;
    for (; this.#plannedChecked < this.#planned.length; this.#plannedChecked += 1) {
      const entry = this.#planned[this.#plannedChecked] as string;
      if (this.#results.has(entry)) continue;
      this.#result(entry);
      ahead = true;
    }
    if (ahead) await new Promise((done) => setImmediate(done));
    // Checks that read host modules take longer than a turn; their misses join this build.
    while (this.#checking.size > 0) await Promise.allSettled([...this.#checking]);
    this.#flushScheduled = false;
    const group = this.#waiting.splice(0);
    if (group.length === 0) return;
    const alone: Waiting[] = [];
    const packs = new Map<EntryGroup, Waiting[]>();
    for (const waiting of group) {
      const entries = this.#groups?.groupOf(waiting.entry);
      if (entries === undefined) alone.push(waiting);
      else if (!entries.closed && !this.#asked.has(waiting.entry)) {
        // Planned ahead: built with its group once the group is complete.
        this.#parked.set(waiting.entry, waiting);
        const unpark = () => {
          if (this.#parked.get(waiting.entry) !== waiting) return;
          this.#parked.delete(waiting.entry);
          this.#push(waiting);
        };
        this.#track(entries.complete.then(unpark, noop));
      } else {
        const members = packs.get(entries) ?? [];
        members.push(waiting);
        packs.set(entries, members);
      }
    }
    if (alone.length === 0 && packs.size === 0) return;
    // A complete group is packed whole (its cached members too: one pack per group). The misses
    // asked for before their group is complete (discovery may be waiting for them) get their own
    // bundles now, and the group is packed once complete, for the next start: one pack build per
    // group, so no two builds of a group race to write its members' indexes.
    const requests: PackRequest[] = [];
    for (const [entries, waiting] of packs) {
      if (entries.closed) {
        this.#packedWhole.add(entries);
        if (entries.entries.length >= 2) requests.push({ entries: [...entries.entries], waiting });
        else alone.push(...waiting);
        continue;
      }
      alone.push(...waiting);
      if (this.#repackScheduled.has(entries)) continue;
      this.#repackScheduled.add(entries);
      this.#track(entries.complete.then(() => this.#repack(entries), noop));
    }
    let esbuild: Awaited<ReturnType<EsbuildBatch["esbuild"]>>;
    try {
      esbuild = await this.#batch.esbuild();
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    try {
      await Promise.all([this.#buildAlone(esbuild, alone), this.#buildPacks(esbuild, requests)]);
    } catch (error) {
      // Not a module's fault (those are outcomes): no miss of this flush is left waiting.
      for (const waiting of group) waiting.reject(error);
    }
  }

  /**
   * A group some of whose members were built on their own before it was complete is packed
   * once it is, for the next start, unless a later miss of it did that already.
   */
  async #repack(group: EntryGroup): Promise<void> {
    if (this.#packedWhole.has(group)) return;
    // A miss of it still held or queued: its flush packs the group whole.
    const queued = new Set([...this.#parked.keys(), ...this.#waiting.map((waiting) => waiting.entry)]);
    if (group.entries.some((entry) => queued.has(entry))) return;
    this.#packedWhole.add(group);
    let esbuild: Awaited<ReturnType<EsbuildBatch["esbuild"]>>;
    try {
      esbuild = await this.#batch.esbuild();
    } catch {
      return; // the members already have their code; the next start tries again
    }
    try {
      await this.#buildPacks(esbuild, [{ entries: [...group.entries], waiting: [] }]);
    } catch {
      // Only for the next start: this batch has every member's code already.
    }
  }

  /** Builds each entry into its own bundle (one esbuild build for all). */
  async #buildAlone(esbuild: Awaited<ReturnType<EsbuildBatch["esbuild"]>>, group: Waiting[]): Promise<void> {
    if (group.length === 0) return;
    let outcomes: Map<string, BuildOutcome>;
    try {
      outcomes = await buildEntries(
        esbuild,
        group.map((waiting) => waiting.entry),
        mapsDir(this.#cacheDir),
      );
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    for (const waiting of group) this.#write(waiting, outcomes.get(waiting.entry));
  }

  /**
   * Builds each group that has a miss as one pack from the sources (all groups in one esbuild
   * build), the group's cached members too, so a group has one pack (see `packFromSources`).
   * The misses a pack could not take get their own bundles.
   */
  async #buildPacks(
    esbuild: Awaited<ReturnType<EsbuildBatch["esbuild"]>>,
    requests: PackRequest[],
  ): Promise<void> {
    if (requests.length === 0) return;
    const packed = await packFromSources(
      esbuild,
      this.#cacheDir,
      requests.map((request) => request.entries),
      this.#context,
      (entry) => findTsconfig(entry, hash, this.#tsconfigs),
    );
    const alone: Waiting[] = [];
    for (const [at, { waiting }] of requests.entries()) {
      const group = packed[at] ?? { status: "alone" };
      if (group.status !== "packed") {
        if (group.status === "alone") alone.push(...waiting);
        else for (const one of waiting) one.reject(group.error);
        continue;
      }
      // A pack this batch wrote may be replaced by a later one (a group packed again after an edit).
      for (const id of group.replaced) {
        this.#writtenPacks.delete(id);
        this.#replacedPacks.add(id);
      }
      this.#writtenPacks.add(group.id);
      for (const entry of group.members.keys()) this.#inPack.add(entry);
      for (const one of waiting) {
        const member = group.members.get(one.entry);
        if (member === undefined) alone.push(one);
        else {
          const url = pathToFileURL(bundlePath(this.#cacheDir, member.key)).href;
          one.resolve(compiledBundle(url, member.key, false, member.pack));
        }
      }
    }
    await this.#buildAlone(esbuild, alone);
  }

  /**
   * Writes a built entry's bundle and settles its waiter. `index` is false when the entry's
   * index keeps naming its pack: its group's pack may have been written while it was built
   * alone (asked for before the group was complete), or it is a member imported on its own.
   */
  #write(
    { entry, resolve, reject }: Waiting,
    outcome: BuildOutcome | undefined,
    index = !this.#inPack.has(entry),
  ): void {
    if (outcome === undefined || outcome instanceof CompileFailure) {
      reject(outcome ?? new CompileFailure(`esbuild returned no output for ${entry}`, {}));
      return;
    }
    try {
      const tsconfig = findTsconfig(entry, hash, this.#tsconfigs);
      const path = writeBundle(this.#cacheDir, entry, outcome, this.#context, tsconfig, { index });
      resolve(compiledBundle(pathToFileURL(path).href, basename(path, ".mjs"), false, undefined));
    } catch (error) {
      reject(error);
    }
  }

  #track(work: Promise<unknown>): void {
    this.#background.add(work);
    const untrack = () => this.#background.delete(work);
    work.then(untrack, untrack);
  }
}

function noop(): void {}
