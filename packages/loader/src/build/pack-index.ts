// The cache index of the packs: which pack holds a group of entries now, and the sweep of old packs.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../compile/atomic-write.js";
import { bundlePath } from "../compile/bundle-index.js";
import { hash } from "../compile/hash.js";
import { mapPath } from "../compile/write-bundle.js";
import type { PackMember } from "./pack-build.js";

/** Packs not written for this long are removed when another pack is written. */
const PACK_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes packs (and their maps and slots) written more than {@link PACK_MAX_AGE_MS} ago: the
 * packs of groups whose membership changed are never read again, and a pack still in use is
 * only a few milliseconds to write anew when its next load misses it. Runs only when a pack is
 * written (a change), never on a warm start; a file it cannot read or remove is left alone.
 */
export function sweepOldPacks(cacheDir: string, now: number = Date.now()): void {
  const sweep = (directory: string, isPackFile: (name: string) => boolean) => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (!isPackFile(name)) continue;
      const path = join(directory, name);
      try {
        if (now - statSync(path).mtimeMs > PACK_MAX_AGE_MS) rmSync(path, { force: true });
      } catch {
        // Removed meanwhile, or not ours to remove: leave it.
      }
    }
  };
  sweep(join(cacheDir, "bundles"), (name) => /^pack-[0-9a-f]{40}\.mjs$/.test(name));
  sweep(join(cacheDir, "maps"), (name) => /^pack-[0-9a-f]{40}\.mjs\.map$/.test(name));
  sweep(join(cacheDir, "packs"), (name) => /^(?:[0-9a-f]{32}|source-[0-9a-f]{40})\.json$/.test(name));
}

/**
 * The cache index of a pack: records which pack holds these entries now and removes the one
 * that held them before (an edited tool changes its key, so its group gets a new pack). A
 * lost race between two processes leaves an extra pack behind, never a missing one.
 */
export function replaceSlot(cacheDir: string, members: readonly PackMember[], id: string): void {
  const slot = join(
    cacheDir,
    "packs",
    `${hash(members.map((member) => member.entry).join("\n")).slice(0, 32)}.json`,
  );
  let previous: string | undefined;
  try {
    previous = (JSON.parse(readFileSync(slot, "utf8")) as { id?: string }).id;
  } catch {
    previous = undefined;
  }
  writeFileAtomicSync(slot, JSON.stringify({ id }));
  if (previous === undefined || previous === id || !/^[0-9a-f]{40}$/.test(previous)) return;
  rmSync(bundlePath(cacheDir, `pack-${previous}`), { force: true });
  rmSync(mapPath(cacheDir, `pack-${previous}`), { force: true });
}
