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

/** What {@link copyPlainData} answers for a value that is not plain data. */
export const NOT_PLAIN: unique symbol = Symbol("not plain data");

/**
 * A fresh copy of plain data (the values {@link assertJsonSerializable} walks without
 * `JSON.stringify`), each property read exactly once, or {@link NOT_PLAIN} when `value` holds
 * anything else. A getter or a Proxy that answers differently on a later read cannot change
 * the copy, so what a host serialises later is what was checked here.
 */
export function copyPlainData(value: unknown): unknown {
  return copyPlain(value, 0);
}

function copyPlain(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null)
    return typeof value === "bigint" || typeof value === "function" ? NOT_PLAIN : value;
  if (depth >= MAX_DEPTH) return NOT_PLAIN;
  const isArray = Array.isArray(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (isArray ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null)
    return NOT_PLAIN;
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return NOT_PLAIN;
  if (isArray) {
    const length = value.length;
    const copy: unknown[] = new Array(length);
    for (let index = 0; index < length; index++) {
      const item = copyPlain(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = item;
    }
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = copyPlain((value as Record<string, unknown>)[key], depth + 1);
    if (field === NOT_PLAIN) return NOT_PLAIN;
    if (key === "__proto__")
      Object.defineProperty(copy, key, {
        value: field,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = field;
  }
  return copy;
}
