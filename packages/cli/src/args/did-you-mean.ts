/**
 * Edit distance between two strings (insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1): the optimal string alignment distance.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const distance: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number) => distance[row]?.[column] ?? Number.POSITIVE_INFINITY;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, at(row - 2, column - 2) + 1);
      }
      (distance[row] as number[])[column] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The one candidate that starts with `input` (two characters or more), else the candidate
 * closest to it when close enough to be a typo (at most a third of its length in edits, at
 * least one); undefined otherwise.
 *
 * @example
 * ```ts
 * closestMatch("valdiate", ["list", "validate"]); // "validate"
 * ```
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  const prefixed = candidates.filter(
    (candidate) => needle.length >= 2 && candidate.toLowerCase().startsWith(needle),
  );
  if (prefixed.length === 1) return prefixed[0];
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  const allowed = Math.max(1, Math.floor(needle.length / 3));
  return best !== undefined && best.distance <= allowed ? best.candidate : undefined;
}

/** ` (did you mean "x"?)`, or "" when nothing is close. */
export function didYouMean(
  input: string,
  candidates: readonly string[],
  format = (name: string) => name,
): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? "" : `; did you mean ${format(match)}?`;
}
