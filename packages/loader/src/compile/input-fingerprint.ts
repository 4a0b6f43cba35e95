import type { Stats } from "node:fs";

/**
 * How long after its last change a file's stat is trusted to identify its content. A write
 * within the same timestamp tick as the stat we recorded could leave size and times equal
 * (timestamps are coarse: a jiffy on Linux, 1 s on HFS+ and some NFS servers, 2 s on FAT),
 * and the cache dir's clock may not be the file system's; so a file changed less than this
 * before it was recorded gets no fingerprint and is always checked by its content hash.
 */
export const RACY_WINDOW_MS = 2_000;

/**
 * A cheap identity of a file's current content: size, modification and change times and
 * inode. `ctime` cannot be set from user land, so restoring an old `mtime` (`touch -d`,
 * `cp -p`) still changes the fingerprint. Returns `undefined` for a file changed within
 * {@link RACY_WINDOW_MS} of `now` ("racily clean", as git calls it): its stat may not tell a
 * same-size edit in the same tick apart.
 */
export function fingerprintOf(stats: Stats, now: number = Date.now()): string | undefined {
  if (now - Math.max(stats.mtimeMs, stats.ctimeMs) < RACY_WINDOW_MS) return undefined;
  return `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`;
}

/** True when a file's stat is exactly the one recorded (a racy file never matches). */
export function fingerprintMatches(stats: Stats, recorded: string | undefined): boolean {
  return (
    recorded !== undefined && recorded === `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}`
  );
}
