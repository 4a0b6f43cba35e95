/** Nesting deeper than this (a cycle, say) is left to `JSON.stringify`. */
const MAX_DEPTH = 100;

/**
 * Throws what `JSON.stringify(value)` would throw (a cycle, a `BigInt`, a throwing getter or
 * `toJSON`), without building the string when `value` is plain data: objects and arrays of
 * the built-in prototypes without `toJSON`, holding strings, numbers, booleans, `null`,
 * `undefined` or symbols, which `JSON.stringify` cannot fail on. Anything else is passed to
 * `JSON.stringify` itself. Getters of plain data run once, as they would in `JSON.stringify`.
 */
export function assertJsonSerializable(value: unknown): void {
  if (!isPlainData(value, 0)) JSON.stringify(value);
}

function isPlainData(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null)
    return typeof value !== "bigint" && typeof value !== "function";
  if (depth >= MAX_DEPTH) return false;
  const isArray = Array.isArray(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (isArray ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null)
    return false;
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return false;
  if (isArray) {
    for (let index = 0; index < value.length; index++)
      if (!isPlainData(value[index], depth + 1)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!isPlainData(record[key], depth + 1)) return false;
  return true;
}
