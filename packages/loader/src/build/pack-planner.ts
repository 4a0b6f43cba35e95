import { rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { type Evaluate, type PreparedModule, preparedModule } from "../compile/prepared-module.js";
import { PACK_EXPORT, SYNC_EXPORT } from "./build-packs.js";
import type { CompiledMember, EntryGroup, EntryGroups } from "./esbuild-queue.js";
import { runPackScript } from "./pack-script.js";

/** Most entries one pack holds. */
const MAX_PACK_SIZE = 32;
/**
 * Most entries the first group of a load holds: one, so the first module is built and
 * imported on its own (a group of one is no pack) and the first tool is ready soonest.
 */
const MAX_FIRST_PACK_SIZE = 1;
/** On average one entry in this many ends a pack (see {@link PackPlanner}). */
const PACK_BOUNDARY_EVERY = 16;

/** A group being planned: complete once closed (see {@link PackPlanner.end}). */
class Chunk implements EntryGroup {
  readonly entries: string[] = [];
  closed = false;
  #resolve = () => {};
  readonly complete = new Promise<void>((resolve) => {
    this.#resolve = resolve;
  });

  close(): void {
    this.closed = true;
    this.#resolve();
  }
}

/**
 * Groups the entries of a load batch into packs, and evaluates each entry from its pack: a warm
 * start reads one file per pack of consecutive entries instead of one per tool, each member
 * behind a lazy `import()` (see `buildPacks`), so no tool code runs before its own turn.
 *
 * A pack ends after an entry whose name hashes to a boundary (about one in
 * {@link PACK_BOUNDARY_EVERY}) or at {@link MAX_PACK_SIZE} entries, so adding or removing a
 * tool changes only the pack around it. Entries not planned, groups of one and members a pack
 * cannot hold have packs of their own; so has, built for the purpose, a member of a pack that
 * cannot be imported or that an earlier load of this process evaluated a member of. Either way
 * a member is evaluated once per process.
 */
export class PackPlanner implements EntryGroups {
  readonly #alone: (entry: string) => Promise<CompiledMember>;
  readonly #chunks = new Map<string, Chunk>();
  /** Members (by id) this batch evaluated first, whether from their group's pack or alone. */
  readonly #evaluatedHere = new Set<string>();
  #open: Chunk = new Chunk();
  #first = true;

  /** `alone` builds a pack of its own for an entry, to evaluate it apart from its group's pack. */
  constructor(alone: (entry: string) => Promise<CompiledMember>) {
    this.#alone = alone;
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
        this.#open = new Chunk();
        this.#first = false;
      }
    }
  }

  /** The group `entry` was planned in (the entries that share its pack), if it was planned. */
  groupOf(entry: string): EntryGroup | undefined {
    return this.#chunks.get(entry);
  }

  /**
   * Discovery ended: the last chunk is complete. A chunk is packed only once complete, so its pack
   * does not depend on how far discovery had got when its first member was needed.
   */
  end(): void {
    this.#open.close();
  }

  /**
   * How to evaluate `entry`: from its pack, unless an earlier load of this process evaluated
   * another of its members (a reload after an edit: a long-running host does not import a new
   * pack per edit) or the pack cannot be imported; then from a pack of its own.
   */
  evaluator(entry: string, member: CompiledMember): PreparedModule {
    // Its own pack's import errors are the module's (a link error is its E_COMPILE).
    const importAlone = async (afresh = false) => {
      const alone = await this.#alone(entry);
      const run = (await importPack(alone.pack.path, afresh))?.members[alone.pack.index];
      if (typeof run !== "function")
        throw new Error(`The pack ${alone.pack.path} has no member ${alone.pack.index}.`);
      return (run as Evaluate)();
    };
    const { path, index, members, sync } = member.pack;
    const reloaded =
      !loadedPacks.has(path) &&
      members.some((id, at) => at !== index && evaluations.has(id) && !this.#evaluatedHere.has(id));
    const first = reloaded ? () => importAlone() : () => runFromPack(path, index, sync, importAlone);
    return preparedModule(() => this.#evaluateOnce(member.id, first, () => importAlone(true)));
  }

  /**
   * {@link evaluateOnce}, remembering the members this batch evaluated first. One that threw in an
   * earlier load is evaluated again with `again` (a new instance of a pack of its own: its group's
   * pack ran its init already): the user may have fixed what it needed and reloaded.
   */
  #evaluateOnce(id: string, evaluate: Evaluate, again: Evaluate): unknown {
    let evaluation = evaluate;
    if (failed.has(id) && !this.#evaluatedHere.has(id)) {
      failed.delete(id);
      evaluations.delete(id);
      evaluation = again;
    }
    if (!evaluations.has(id)) this.#evaluatedHere.add(id);
    return evaluateOnce(id, evaluation);
  }
}

/**
 * Every member evaluated in this process, by id: like an ES module, a member is evaluated once
 * per process, and a later load reuses its exports, at once or with its promise until that
 * settles, as the first evaluation gave them. What threw is kept for its load only ({@link failed}).
 */
const evaluations = new Map<string, Evaluate>();
/** The members in {@link evaluations} whose evaluation threw or rejected: the next load evaluates them again. */
const failed = new Set<string>();

/** The packs this process imported (or is importing), by path: later members come from them too. */
const loadedPacks = new Map<
  string,
  { functions: PackFunctions | undefined } | Promise<PackFunctions | undefined>
>();

/**
 * Evaluates the member once: its exports (or a throw) at once when it evaluates without a
 * promise (a member of an imported pack, see `SYNC_EXPORT`), else a promise of them.
 */
function evaluateOnce(id: string, evaluate: Evaluate): unknown {
  const known = evaluations.get(id);
  if (known !== undefined) return known();
  const rememberFailure = (error: unknown) => {
    evaluations.set(id, () => {
      throw error;
    });
    failed.add(id);
  };
  let result: unknown;
  try {
    result = evaluate();
  } catch (error) {
    rememberFailure(error);
    throw error;
  }
  evaluations.set(id, () => result);
  if (result instanceof Promise)
    result.then((value: unknown) => evaluations.set(id, () => value), rememberFailure);
  return result;
}

/** What a pack exports: per member, its `import()` and, for a shared pack, its synchronous evaluation. */
interface PackFunctions {
  members: readonly unknown[];
  now: readonly unknown[] | undefined;
}

/**
 * Runs member `index` of the pack at `path` (importing the pack the first time): at once when
 * the pack is imported and the member is `sync`, else through a promise; `alone` when the pack
 * has no function for it. A pack that cannot be imported (damaged, removed) is removed for the
 * next load to write anew, and its members are imported alone.
 */
function runFromPack(path: string, index: number, sync: boolean, alone: Evaluate): unknown {
  let pack = loadedPacks.get(path);
  if (pack === undefined) {
    const importing = importPack(path).catch(() => {
      loadedPacks.delete(path);
      try {
        rmSync(path, { force: true });
      } catch {
        // Not ours to remove (a tool host reads its host's packs, read only): left as it is.
      }
      return undefined;
    });
    importing.then((functions) => {
      if (loadedPacks.get(path) === importing) loadedPacks.set(path, { functions });
    });
    loadedPacks.set(path, importing);
    pack = importing;
  }
  if (!(pack instanceof Promise)) return run(pack.functions, index, sync, alone);
  return pack.then((functions) => run(functions, index, sync, alone));
}

/** Runs member `index` of an imported pack: its synchronous function when it has a valid one. */
function run(functions: PackFunctions | undefined, index: number, sync: boolean, alone: Evaluate): unknown {
  const now = sync ? functions?.now?.[index] : undefined;
  if (typeof now === "function") return (now as Evaluate)();
  const later = functions?.members[index];
  return typeof later === "function" ? (later as Evaluate)() : alone();
}

/** How many packs were imported `afresh` (see {@link importPack}): each such URL is new. */
let freshImports = 0;

/**
 * The functions a pack exports (`undefined` when it exports none), run as a script with V8's
 * code cache where it can be (see `runPackScript`, a new instance each run), else imported
 * (`afresh`: at a URL never imported, so that Node evaluates it again); throws when it cannot be.
 */
async function importPack(path: string, afresh = false): Promise<PackFunctions | undefined> {
  const url = pathToFileURL(path).href + (afresh ? `?again=${++freshImports}` : "");
  const namespace =
    (await runPackScript(path)) ?? ((await import(/* @vite-ignore */ url)) as Record<string, unknown>);
  const members = namespace[PACK_EXPORT];
  if (!Array.isArray(members)) return undefined;
  const now = namespace[SYNC_EXPORT];
  return { members, now: Array.isArray(now) ? now : undefined };
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
