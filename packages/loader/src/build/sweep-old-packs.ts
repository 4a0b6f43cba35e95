import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { orElse } from "../discover/expand-path.js";

/** Packs not written for this long are removed when another pack is written. */
const PACK_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes packs (and their maps and slots) written more than {@link PACK_MAX_AGE_MS} ago: the
 * packs of groups whose membership changed are never read again, and a pack still in use is
 * only a few milliseconds to write anew when its next load misses it. Runs only when a pack is
 * written (a change), never on a warm start; a file it cannot read or remove is left alone.
 */
export function sweepOldPacks(cacheDir: string): void {
  // Also the bundles of one entry and the `packs/` index files that earlier cache formats wrote.
  // With a pack: its script, the `.cjs` the script is compiled as and its code caches (one per V8 build).
  const bundle = /^(?:pack-)?[0-9a-f]{40}\.(?:mjs|cjs|script|[0-9a-f]{12}\.code)$/;
  sweepOldFiles(join(cacheDir, "bundles"), (name) => bundle.test(name));
  sweepOldFiles(join(cacheDir, "maps"), (name) => /^(?:pack-)?[0-9a-f]{40}\.mjs\.map$/.test(name));
  sweepOldFiles(join(cacheDir, "packs"), (name) => /^(?:[0-9a-f]{32}|source-[0-9a-f]{40})\.json$/.test(name));
}

/** Removes the files of `directory` that `isPackFile` names and that were written more than {@link PACK_MAX_AGE_MS} ago. */
export function sweepOldFiles(directory: string, isPackFile: (name: string) => boolean): void {
  const now = Date.now();
  for (const name of orElse(() => readdirSync(directory), [])) {
    if (!isPackFile(name)) continue;
    const path = join(directory, name);
    try {
      if (now - statSync(path).mtimeMs > PACK_MAX_AGE_MS) rmSync(path, { force: true });
    } catch {
      // Removed meanwhile, or not ours to remove: leave it.
    }
  }
}
