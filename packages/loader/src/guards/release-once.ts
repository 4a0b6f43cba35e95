/**
 * Wraps the release of a hold so that calling it again does nothing: each hold on a guard
 * counts once, however often its owner releases it (a `finally` after an early release).
 */
export function releaseOnce(release: () => void): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
