import { readFileSync } from "node:fs";
import { join } from "node:path";
import { orElse } from "../discover/expand-path.js";
import { writeFileAtomicSync } from "./atomic-write.js";
import type { TsconfigSnapshot } from "./find-tsconfig.js";
import { hash } from "./hash.js";

/**
 * Bump when the pack layout or the index format changes, so nothing written before is reused.
 * 3: one kind of unit (packs of one or more members) and one index per group of entries.
 * 4: a shared pack also exports each member's synchronous evaluation (see `SYNC_EXPORT`).
 */
export const CACHE_FORMAT_VERSION = 5;

/** What one member of a pack was built from: enough to prove its code is still current. */
export interface MemberRecord {
  entry: string;
  /** A hash over everything that can change the member's code (see {@link memberKey}). */
  key: string;
  /** The pack that holds its code (`<cacheDir>/bundles/pack-<id>.mjs`) and its place in it. */
  pack: string;
  index: number;
  /**
   * The pack file's size as written: a pack of another size (cut short by a crash, filled
   * with zeros by a file system that lost its data) is built again, never imported.
   */
  packBytes: number;
  /**
   * True when the pack's `SYNC_EXPORT` function evaluates this member without a promise (its
   * modules have no top-level `await`); absent: only its `members` function does.
   */
  sync?: boolean;
  tsconfig: TsconfigSnapshot | null;
  /** Absolute path → content hash of every source file bundled for this member. */
  inputs: Record<string, string>;
  /**
   * Absolute path → stat fingerprint (see `fingerprintOf`) taken before the content was
   * hashed. A matching stat proves the file unchanged without reading it; an input without
   * one (changed too recently when recorded) is always checked by content. Not in the key.
   */
  stats: Record<string, string>;
  /** Host specifier → hash of the virtual module source served for it. */
  hostModules: Record<string, string>;
  /** Absolute paths of external packages the member imports. */
  externals: string[];
}

/** The cache index of a group of consecutive entries (found by its first entry's path). */
export interface GroupIndex {
  /** Hash of the compiler version, the cache format and the build options. */
  context: string;
  members: MemberRecord[];
}

export function packPath(cacheDir: string, id: string): string {
  return join(cacheDir, "bundles", `pack-${id}.mjs`);
}

export function packMapPath(cacheDir: string, id: string): string {
  return join(cacheDir, "maps", `pack-${id}.mjs.map`);
}

/** Where the index of the group whose first entry is `first` lives. */
export function indexPath(cacheDir: string, first: string): string {
  return join(cacheDir, "index", `${hash(first).slice(0, 32)}.json`);
}

/** The key of a member: a hash over what it was built from (not its stats, not its pack). */
export function memberKey(
  context: string,
  record: Pick<MemberRecord, "entry" | "tsconfig" | "inputs" | "hostModules">,
): string {
  const inputs = Object.keys(record.inputs)
    .sort()
    .map((path) => `${path}\0${record.inputs[path]}`);
  const hostModules = Object.keys(record.hostModules)
    .sort()
    .map((specifier) => `${specifier}\0${record.hostModules[specifier]}`);
  return hash(
    [context, record.entry, JSON.stringify(record.tsconfig), ...inputs, "\0hosts", ...hostModules].join("\n"),
  ).slice(0, 40);
}

/** The index of a group, if any. Not checked for its owner: a pack it names is, before its import. */
export function readGroupIndex(cacheDir: string, first: string): GroupIndex | undefined {
  const path = indexPath(cacheDir, first);
  const index = orElse(() => JSON.parse(readFileSync(path, "utf8")) as GroupIndex | null, null);
  return typeof index?.context === "string" && Array.isArray(index.members) ? index : undefined;
}

/** Records a group (written atomically; a lost race only costs a rebuild). Throws when it cannot. */
export function writeGroupIndex(cacheDir: string, first: string, index: GroupIndex): void {
  writeFileAtomicSync(indexPath(cacheDir, first), JSON.stringify(index));
}
