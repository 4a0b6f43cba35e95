/**
 * A count and its noun for messages: the singular for exactly one, the plural otherwise
 * (`0 files`, `1 file`, `3 files`). The plural is the singular plus `s` unless given.
 *
 * @example
 * count(1, "file"); // "1 file"
 * count(3, "pending action"); // "3 pending actions"
 * count(2, "child", "children"); // "2 children"
 */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
