import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import type { CompiledBundle } from "./esbuild-queue.js";
import { type PackMember, packId, packPath } from "./pack-id.js";

/** Most entries one pack holds. */
export const MAX_PACK_SIZE = 32;
/** Most entries the first pack of a load holds: the first tool is ready sooner. */
const MAX_FIRST_PACK_SIZE = 8;
/** On average one entry in this many ends a pack (see {@link PackPlanner}). */
const PACK_BOUNDARY_EVERY = 16;

/** Evaluates one compiled entry and resolves to its module namespace (or what stands for it). */
export type Evaluate = () => Promise<unknown>;

interface Chunk {
  entries: string[];
  pack?: Promise<LoadedPack | undefined>;
}

/**
 * Groups the entries of a load batch into packs: consecutive entries whose current bundles
 * are wrapped as functions in one file (see `writePack`), so a warm start reads and compiles
 * one file per pack instead of one per tool, and no tool code runs before its own turn.
 *
 * A pack ends after an entry whose name (not its folder's path) hashes to a boundary (about one in
 * {@link PACK_BOUNDARY_EVERY}) or at {@link MAX_PACK_SIZE} entries (8 for the first pack, so
 * the first tools are ready sooner), so adding or removing a tool changes only the pack
 * around it. A pack is written once per set of bundle keys and
 * found by name afterwards. Entries not planned, packs with fewer than two bundles, bundles
 * the pack cannot wrap, and every member of a pack that cannot be written or imported are
 * imported on their own, exactly as without packs.
 */
export class PackPlanner {
  readonly #cacheDir: string;
  readonly #compile: (entry: string) => Promise<CompiledBundle>;
  readonly #chunks = new Map<string, Chunk>();
  #open: Chunk = { entries: [] };
  #first = true;

  constructor(cacheDir: string, compile: (entry: string) => Promise<CompiledBundle>) {
    this.#cacheDir = cacheDir;
    this.#compile = compile;
  }

  /** Adds entries the batch will load, in load order. */
  plan(entries: readonly string[]): void {
    for (const entry of entries) {
      if (this.#chunks.has(entry)) continue;
      this.#open.entries.push(entry);
      this.#chunks.set(entry, this.#open);
      const limit = this.#first ? MAX_FIRST_PACK_SIZE : MAX_PACK_SIZE;
      if (this.#open.entries.length >= limit || isBoundary(entry)) {
        this.#open = { entries: [] };
        this.#first = false;
      }
    }
  }

  /** How to evaluate `entry`, whose current bundle is `bundle`: from its pack when it has one. */
  async evaluator(entry: string, bundle: CompiledBundle): Promise<Evaluate> {
    const alone: Evaluate = () => import(/* @vite-ignore */ bundle.url);
    const chunk = this.#chunks.get(entry);
    if (chunk === undefined) return alone;
    chunk.pack ??= this.#pack(chunk);
    const pack = await chunk.pack;
    const index =
      pack?.members.findIndex((member) => member.entry === entry && member.key === bundle.key) ?? -1;
    if (pack === undefined || index === -1) return alone;
    return () => pack.evaluate(index, alone);
  }

  async #pack(chunk: Chunk): Promise<LoadedPack | undefined> {
    const compiled = await Promise.allSettled(chunk.entries.map((entry) => this.#compile(entry)));
    const members: PackMember[] = [];
    for (const [index, outcome] of compiled.entries()) {
      if (outcome.status === "fulfilled")
        members.push({ entry: chunk.entries[index] as string, key: outcome.value.key });
    }
    if (members.length < 2) return undefined;
    const id = packId(members);
    const path = packPath(this.#cacheDir, id);
    if (!existsSync(path)) {
      try {
        // Loaded only to write a pack: a warm start never needs the lexer or the map codec.
        const { writePack } = await import("./pack-file.js");
        if ((await writePack(this.#cacheDir, id, members)) === 0) return undefined;
      } catch {
        return undefined; // an unreadable or unwritable cache: each bundle on its own still works
      }
    }
    return new LoadedPack(pathToFileURL(path).href, members);
  }
}

/** A pack on disk, imported the first time one of its members is evaluated. */
class LoadedPack {
  readonly members: readonly PackMember[];
  readonly #url: string;
  #modules: Promise<readonly unknown[] | undefined> | undefined;

  constructor(url: string, members: readonly PackMember[]) {
    this.#url = url;
    this.members = members;
  }

  /** Runs member `index` (its top-level code, then its exports); `alone` when the pack has no function for it. */
  async evaluate(index: number, alone: Evaluate): Promise<unknown> {
    this.#modules ??= import(/* @vite-ignore */ this.#url).then(
      (namespace: { modules?: unknown }) =>
        Array.isArray(namespace.modules) ? namespace.modules : undefined,
      () => undefined, // removed by another process, or unreadable: import each member on its own
    );
    const run = (await this.#modules)?.[index];
    return typeof run === "function" ? (run as () => Promise<unknown>)() : alone();
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
