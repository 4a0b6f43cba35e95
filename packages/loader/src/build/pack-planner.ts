import { readFileSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { bundlePath, packPath, type SourcePackRef, sourcePackKeysPath } from "../compile/bundle-index.js";
import { isOwnPrivateFile } from "../compile/cache-folder.js";
import type { CompiledBundle } from "../compile/compiled-bundle.js";
import type { EntryGroup, EntryGroups } from "../compile/esbuild-queue.js";
import { type Evaluate, type PreparedModule, preparedModule } from "../compile/module-compiler.js";
import { PACK_EXPORT, type PackMember, PackWriter, packId } from "./pack-build.js";

type Esbuild = typeof import("esbuild");

/** Most entries one pack holds. */
const MAX_PACK_SIZE = 32;
/**
 * Most entries the first group of a load holds: one, so the first module is built and
 * imported on its own (a group of one is no pack) and the first tool is ready soonest.
 */
const MAX_FIRST_PACK_SIZE = 1;
/** On average one entry in this many ends a pack (see {@link PackPlanner}). */
const PACK_BOUNDARY_EVERY = 16;

interface Chunk extends EntryGroup {
  entries: string[];
  /** Its pack, once asked for (`undefined`: its entries import alone). */
  pack?: Promise<LoadedPack | undefined>;
  /** Settles once the chunk holds all its entries (see {@link PackPlanner.end}). */
  complete: Promise<void>;
  closed: boolean;
  close: () => void;
}

function openChunk(): Chunk {
  let resolve = () => {};
  const complete = new Promise<void>((settle) => {
    resolve = settle;
  });
  const chunk: Chunk = {
    entries: [],
    complete,
    closed: false,
    close: () => {
      chunk.closed = true;
      resolve();
    },
  };
  return chunk;
}

/**
 * Groups the entries of a load batch into packs: consecutive entries whose current bundles
 * esbuild bundles into one file, each behind a lazy `import()` (see `writePack`), so a warm start reads and compiles
 * one file per pack instead of one per tool, and no tool code runs before its own turn.
 *
 * A pack ends after an entry whose name (not its folder's path) hashes to a boundary (about
 * one in {@link PACK_BOUNDARY_EVERY}) or at {@link MAX_PACK_SIZE} entries (the first group
 * is the first entry alone, see {@link MAX_FIRST_PACK_SIZE}), so adding or removing a tool
 * changes the pack around it. A pack is written once per set of bundle
 * keys and found by name afterwards. Entries not planned, packs with fewer than two bundles,
 * bundles the pack cannot wrap, packs with a member this process evaluated already, and
 * every member of a pack that cannot be written or imported are imported on their own,
 * exactly as without packs. Either way a bundle is evaluated once per process.
 */
export class PackPlanner implements EntryGroups {
  readonly #cacheDir: string;
  readonly #compile: (entry: string) => Promise<CompiledBundle>;
  readonly #alone: (entry: string) => Promise<CompiledBundle>;
  readonly #writer: PackWriter;
  readonly #chunks = new Map<string, Chunk>();
  /** Bundles this batch imported on their own because their group was not complete yet. */
  readonly #aloneHere = new Set<string>();
  /** Bundles (by URL) this batch evaluated first, whether from a pack or on their own. */
  readonly #evaluatedHere = new Set<string>();
  #open: Chunk = openChunk();
  #first = true;

  /**
   * `compile` gives an entry's current code (its bundle, or its place in a pack built from the
   * sources); `alone` builds the bundle of an entry whose code is in a pack, to import it on
   * its own.
   */
  constructor(
    cacheDir: string,
    compile: (entry: string) => Promise<CompiledBundle>,
    esbuild: () => Promise<Esbuild>,
    alone: (entry: string) => Promise<CompiledBundle>,
  ) {
    this.#cacheDir = cacheDir;
    this.#compile = compile;
    this.#alone = alone;
    this.#writer = new PackWriter(cacheDir, esbuild);
  }

  /** Adds entries the batch will load, in load order. */
  plan(entries: readonly string[]): void {
    for (const entry of entries) {
      if (this.#chunks.has(entry)) continue;
      this.#open.entries.push(entry);
      this.#chunks.set(entry, this.#open);
      const limit = this.#first ? MAX_FIRST_PACK_SIZE : MAX_PACK_SIZE;
      if (this.#open.entries.length >= limit || isBoundary(entry)) {
        this.#open.close();
        this.#open = openChunk();
        this.#first = false;
      }
    }
  }

  /** The group `entry` was planned in (the entries that share its pack), if it was planned. */
  groupOf(entry: string): EntryGroup | undefined {
    return this.#chunks.get(entry);
  }

  /**
   * No more entries will be planned (discovery ended): the last chunk is complete. A chunk's
   * pack is looked up (or written) only once the chunk is complete, so its members, hence
   * its name, do not depend on how far discovery had got when its first member was needed.
   */
  end(): void {
    this.#open.close();
  }

  /**
   * How to evaluate `entry`, whose current bundle is `bundle`: from its pack when it has one
   * and none of the pack's bundles was evaluated in this process yet (a reload evaluates only
   * the edited bundles, on their own, instead of importing a new pack of them all).
   */
  async evaluator(entry: string, bundle: CompiledBundle): Promise<PreparedModule> {
    if (bundle.pack !== undefined) return this.#sourceMember(entry, bundle, bundle.pack);
    const importAlone = () => import(/* @vite-ignore */ bundle.url);
    const alone = preparedModule(() => this.#evaluateOnce(bundle.url, importAlone));
    const chunk = this.#chunks.get(entry);
    if (chunk === undefined) return alone;
    if (!chunk.closed && chunk.pack === undefined) {
      // Its group is still being discovered: the module is not held back for the rest of it.
      // It is imported on its own; the group's pack is still looked up (or written, for the
      // next start) once the group is complete, and its other members may come from it.
      chunk.pack = this.#pack(chunk);
      this.#aloneHere.add(bundle.url);
      return alone;
    }
    // Even when this process will not import it, so the next start finds it.
    chunk.pack ??= this.#pack(chunk);
    const pack = await chunk.pack;
    if (pack === undefined) return alone;
    let index = -1;
    for (let at = 0; at < pack.members.length; at++) {
      if (pack.members[at]?.url === bundle.url) {
        index = at;
        break;
      }
    }
    if (index === -1) return alone;
    return preparedModule(() => this.#evaluateOnce(bundle.url, () => pack.evaluate(index, importAlone)));
  }

  /**
   * How to evaluate an entry whose code is member `index` of a pack built from the sources:
   * from that pack, unless this process evaluated another of its members already (a reload
   * after an edit: the edited module is imported on its own, so a long-running host does not
   * import a new pack per edit) or the pack cannot be imported; then from its own bundle,
   * built for the purpose.
   */
  #sourceMember(entry: string, bundle: CompiledBundle, ref: SourcePackRef): PreparedModule {
    const importAlone = async () => import(/* @vite-ignore */ (await this.#alone(entry)).url);
    const path = packPath(this.#cacheDir, ref.id);
    let pack = sourcePacks.get(path);
    if (pack === undefined) {
      const reloaded = this.#evaluatedByEarlierLoad(ref.id, ref.index);
      if (reloaded) return preparedModule(() => this.#evaluateOnce(bundle.url, importAlone));
      pack = new LoadedPack(path, [], () => sourcePacks.delete(path));
      sourcePacks.set(path, pack);
    }
    const loaded = pack;
    return preparedModule(() =>
      this.#evaluateOnce(bundle.url, () => loaded.evaluate(ref.index, importAlone)),
    );
  }

  /**
   * Whether an earlier load of this process evaluated a member of pack `id` other than
   * `index` (not one this batch imported on its own before its group was complete). Reads the
   * pack's member keys only when an earlier load evaluated anything at all (a reload).
   */
  #evaluatedByEarlierLoad(id: string, index: number): boolean {
    if (evaluations.size === this.#evaluatedHere.size) return false;
    let keys: unknown;
    try {
      keys = (JSON.parse(readFileSync(sourcePackKeysPath(this.#cacheDir, id), "utf8")) as { keys?: unknown })
        .keys;
    } catch {
      return true; // unknown members: import this one on its own, as after an edit
    }
    if (!Array.isArray(keys)) return true;
    return keys.some((key, at) => {
      if (at === index || typeof key !== "string" || key === "") return false;
      const url = pathToFileURL(bundlePath(this.#cacheDir, key)).href;
      return evaluations.has(url) && !this.#evaluatedHere.has(url);
    });
  }

  /** {@link evaluateOnce}, remembering the bundles this batch evaluated first. */
  #evaluateOnce(url: string, evaluate: Evaluate): Promise<unknown> {
    if (!evaluations.has(url)) this.#evaluatedHere.add(url);
    return evaluateOnce(url, evaluate);
  }

  async #pack(chunk: Chunk): Promise<LoadedPack | undefined> {
    await chunk.complete;
    const members: Array<PackMember & { url: string }> = [];
    const compiled: Array<CompiledBundle | undefined> = [];
    const compiling: Array<Promise<unknown>> = [];
    for (let index = 0; index < chunk.entries.length; index++) {
      const entry = chunk.entries[index] as string;
      const compile = this.#compile(entry);
      compiling[index] = compile;
      compile.then(
        (bundle) => {
          compiled[index] = bundle;
        },
        () => {},
      );
    }
    await Promise.allSettled(compiling);
    // Its group was packed from the sources: the entries left out of that pack import alone.
    for (const bundle of compiled) if (bundle?.pack !== undefined) return undefined;
    for (let index = 0; index < chunk.entries.length; index++) {
      const bundle = compiled[index];
      if (bundle !== undefined)
        members[members.length] = { entry: chunk.entries[index] as string, key: bundle.key, url: bundle.url };
    }
    if (members.length < 2) return undefined;
    const id = packId(members);
    const path = packPath(this.#cacheDir, id);
    // A pack that is not the loader's own file is written anew (the rename replaces it).
    if (!isOwnPrivateFile(path)) {
      try {
        // esbuild is imported only to write a pack: a warm start finds every pack by name.
        if ((await this.#writer.write(id, members)) === 0) return undefined;
      } catch {
        return undefined; // an unreadable or unwritable cache: each bundle on its own still works
      }
    }
    // Written for the next start either way; imported only if it would evaluate every member.
    // A member evaluated by an earlier load (a reload) keeps the pack closed: a long-running
    // host does not import a new pack per edit. One imported alone by this batch is not
    // evaluated again from the pack (evaluations are per bundle URL).
    if (members.some((member) => evaluations.has(member.url) && !this.#aloneHere.has(member.url)))
      return undefined;
    return new LoadedPack(path, members);
  }
}

/**
 * Every bundle evaluated in this process, by URL, whether from a pack or imported on its own:
 * like an ES module, a bundle is evaluated once per process (a rejection is kept too, as Node
 * keeps a module whose evaluation threw), and a load that finds it here reuses its exports.
 */
const evaluations = new Map<string, Promise<unknown>>();

/**
 * The packs built from the sources that this process imports, by path: once one is in use,
 * its other members come from it too (it is in memory already), on later loads as well.
 */
const sourcePacks = new Map<string, LoadedPack>();

function evaluateOnce(url: string, evaluate: Evaluate): Promise<unknown> {
  let evaluation = evaluations.get(url);
  if (evaluation === undefined) {
    evaluation = evaluate();
    evaluations.set(url, evaluation);
  }
  return evaluation;
}

/** A pack on disk, imported the first time one of its members is evaluated. */
class LoadedPack {
  readonly members: ReadonlyArray<PackMember & { url: string }>;
  readonly #path: string;
  /** The pack's member functions, once imported (`undefined`: it could not be imported). */
  #functions: Promise<readonly unknown[] | undefined> | undefined;

  readonly #onFailure: () => void;

  /** `onFailure` is called when the pack cannot be imported (its members are then imported alone). */
  constructor(path: string, members: ReadonlyArray<PackMember & { url: string }>, onFailure = () => {}) {
    this.#path = path;
    this.members = members;
    this.#onFailure = onFailure;
  }

  /** Runs member `index` (its top-level code, then its exports); `alone` when the pack has no function for it. */
  async evaluate(index: number, alone: Evaluate): Promise<unknown> {
    this.#functions ??= this.#import();
    const run = (await this.#functions)?.[index];
    return typeof run === "function" ? (run as Evaluate)() : alone();
  }

  async #import(): Promise<readonly unknown[] | undefined> {
    let functions: unknown;
    try {
      const namespace = (await import(/* @vite-ignore */ pathToFileURL(this.#path).href)) as Record<
        string,
        unknown
      >;
      functions = namespace[PACK_EXPORT];
    } catch {
      // Damaged or removed: import each member on its own, and let the next load write it anew.
      this.#onFailure();
      try {
        rmSync(this.#path, { force: true });
      } catch {
        // Left for a later load to replace; it is never trusted without importing it.
      }
    }
    return Array.isArray(functions) ? functions : undefined;
  }
}

/**
 * Whether a pack ends after `entry`: decided by its name (`tool.ts`, or `tool/index.ts` for a
 * folder's entry), not its whole path, so the grouping does not change when the project moves.
 */
function isBoundary(entry: string): boolean {
  const file = basename(entry);
  const name = /^index\.[^.]+$/.test(file) ? `${basename(dirname(entry))}/${file}` : file;
  return fnv1a(name) % PACK_BOUNDARY_EVERY === 0;
}

/** FNV-1a, 32 bits: an even spread of names, at a fraction of a SHA-256 (500 names per load). */
function fnv1a(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}
