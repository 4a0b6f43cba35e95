import type { Stats } from "node:fs";

/**
 * How long after its last change a file's stat is trusted to identify its content: a write in
 * the tick of the recorded stat could leave size and times equal (a jiffy on Linux, 1 s on HFS+
 * and some NFS, 2 s on FAT), and clocks differ; a file changed later gets no fingerprint.
 */
export const RACY_WINDOW_MS = 2_000;

/**
 * A cheap identity of a file's content: size, mtime, ctime (not settable from user land, so
 * `touch -d` still changes it) and inode; `undefined` for a file changed within
 * {@link RACY_WINDOW_MS} of `now` ("racily clean", as git calls it).
 */
export function fingerprintOf(stats: Stats, now: number = Date.now()): string | undefined {
  if (now - Math.max(stats.mtimeMs, stats.ctimeMs) < RACY_WINDOW_MS) return undefined;
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
}

/** True when a file's stat is exactly the one recorded (a racy file never matches). */
export function fingerprintMatches(stats: Stats, recorded: string | undefined): boolean {
  // As read long after the change: the fingerprint whatever the time now.
  return recorded !== undefined && recorded === fingerprintOf(stats, Number.POSITIVE_INFINITY);
}
