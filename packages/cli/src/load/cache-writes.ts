/** The cache writes loads of this process left running (see `LoadCustomToolsResult.cached`). */
const writes = new Set<Promise<void>>();

/** Keeps `cached` until it settles, so that the process does not end before it. */
export function holdCacheWrite(cached: Promise<void>): void {
  writes.add(cached);
  void cached.finally(() => writes.delete(cached));
}

/**
 * Settles once every held cache write has, or after `capMs` (a build that never ends must not
 * keep the command from exiting): the command's output is out before, the next run is warm after.
 */
export async function cacheWritesSettled(capMs: number): Promise<void> {
  if (writes.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, capMs);
    timer.unref();
  });
  await Promise.race([Promise.allSettled([...writes]), cap]);
  clearTimeout(timer);
}
