import type { Diagnostic } from "@tooldock/sdk";

/** The cache writes loads of this process left running (see `LoadCustomToolsResult.cached`). */
const writes = new Set<Promise<Diagnostic[]>>();

/** Keeps `cached` until it settles, so that the process does not end before it. */
export function holdCacheWrite(cached: Promise<Diagnostic[]>): void {
  writes.add(cached);
  const drop = () => writes.delete(cached);
  cached.then(drop, drop);
}

/**
 * Settles once every held cache write has, with their warnings (the packs could not be
 * written: the next run compiles again), or after `capMs` with none (a build that never ends
 * must not keep the command from exiting): the command's output is out before, the next run
 * is warm after.
 */
export async function cacheWritesSettled(capMs: number): Promise<Diagnostic[]> {
  if (writes.size === 0) return [];
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<Diagnostic[][]>((resolve) => {
    timer = setTimeout(() => resolve([]), capMs);
    timer.unref();
  });
  const warnings = await Promise.race([Promise.all([...writes]), cap]);
  clearTimeout(timer);
  const seen = new Set<string>();
  return warnings.flat().filter((warning) => !seen.has(warning.code) && seen.add(warning.code));
}
