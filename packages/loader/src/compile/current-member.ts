import { existsSync, readFileSync, type Stats, statSync } from "node:fs";
import { remembered } from "../remembered.js";
import { isOwnPrivateFile } from "./cache-folder.js";
import { type MemberRecord, packPath } from "./cache-index.js";
import { findTsconfig, type TsconfigMemo } from "./find-tsconfig.js";
import { hash } from "./hash.js";
import { ensureHostModules, hostModuleSourceHash } from "./host-modules.js";
import { fingerprintMatches, fingerprintOf } from "./input-fingerprint.js";

/** What one batch remembers between the checks of its members. */
export interface CheckMemo {
  tsconfigs: TsconfigMemo;
  /** Pack id and size → whether it is the loader's own private file, of that size. */
  packs: Map<string, boolean>;
  /** External file → whether it exists (members often import the same package files). */
  externals: Map<string, boolean>;
}

export function checkMemo(): CheckMemo {
  return { tsconfigs: new Map(), packs: new Map(), externals: new Map() };
}

/**
 * Whether a recorded member is still current: its pack is the loader's own file, of the size it
 * was written with (a crash can cut it short), and nothing it was built from changed (tsconfig
 * chain, inputs, external packages, host module sources). Resolves to the fresh stat prints to
 * record (`{}`: none), or `undefined`: build it again. Never imports esbuild; file access is
 * synchronous. An input whose stat fingerprint is not exactly the recorded one is hashed.
 */
export async function checkMember(
  cacheDir: string,
  record: MemberRecord,
  memo: CheckMemo,
): Promise<Record<string, string> | undefined> {
  // A pack that is not the loader's own file is rebuilt (and replaced), never imported.
  if (
    typeof record.packBytes !== "number" ||
    !remembered(memo.packs, `${record.pack} ${record.packBytes}`, () =>
      isOwnPrivateFile(packPath(cacheDir, record.pack), record.packBytes),
    )
  )
    return undefined;
  const tsconfig = findTsconfig(record.entry, memo.tsconfigs);
  if (tsconfig?.path !== record.tsconfig?.path || tsconfig?.hash !== record.tsconfig?.hash) return undefined;
  const refreshed: Record<string, string> = {};
  for (const [path, inputHash] of Object.entries(record.inputs)) {
    let current: Stats;
    try {
      current = statSync(path);
      if (fingerprintMatches(current, record.stats[path])) continue;
      if (hash(readFileSync(path)) !== inputHash) return undefined;
    } catch {
      return undefined; // deleted or unreadable: rebuild, and let esbuild say what is wrong
    }
    const fingerprint = fingerprintOf(current);
    if (fingerprint !== undefined) refreshed[path] = fingerprint;
  }
  if (!record.externals.every((path) => remembered(memo.externals, path, existsSync))) return undefined;
  const specifiers = Object.keys(record.hostModules);
  if (specifiers.length > 0) await ensureHostModules(specifiers);
  for (const specifier of specifiers) {
    if (hostModuleSourceHash(specifier) !== record.hostModules[specifier]) return undefined;
  }
  return refreshed;
}
