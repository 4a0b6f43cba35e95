/**
 * Waits for `promise` at most `ms` milliseconds: `true` when it settled in time (fulfilled or
 * rejected, the outcome is dropped), `false` when the time ran out first. The timer is
 * cleared either way, so a promise that never settles holds neither the caller nor the
 * process: the CLI's way out (`session.dispose()`, a `reject` that never returns) never hangs.
 */
export function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}
