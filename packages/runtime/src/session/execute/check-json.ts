import { setOwnField } from "../../util/set-own-field.js";

/** Nesting deeper than this (a cycle, say) is left to `JSON.stringify`. */
const MAX_DEPTH = 100;

/** What {@link copyPlainData} answers for a value that is not plain data. */
export const NOT_PLAIN: unique symbol = Symbol("not plain data");

/**
 * Throws what `JSON.stringify(value)` would throw (a cycle, a `BigInt`, a throwing getter or
 * `toJSON`), without building the string when `value` is plain data (see
 * {@link copyPlainData}), which `JSON.stringify` cannot fail on. Anything else is passed to
 * `JSON.stringify` itself. Getters of plain data run once, as they would in `JSON.stringify`.
 */
export function assertJsonSerializable(value: unknown): void {
  if (copyPlainData(value) === NOT_PLAIN) JSON.stringify(value);
}

/**
 * A fresh copy of plain data, each property read exactly once, or {@link NOT_PLAIN} when
 * `value` holds anything else. Plain data is objects and arrays of the built-in prototypes
 * without `toJSON`, nested less than 100 deep, holding strings, numbers, booleans, `null`,
 * `undefined` or symbols. A getter or a Proxy that answers differently on a later read
 * cannot change the copy, so what a host serialises later is what was checked here. An own
 * `"__proto__"` key stays an own property; a null-prototype object is copied to a plain one.
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
    setOwnField(copy, key, field);
  }
  return copy;
}
