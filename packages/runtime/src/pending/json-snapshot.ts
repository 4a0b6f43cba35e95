// Captured when this module is evaluated, so a tool module that replaces `JSON.stringify`
// later cannot change how records and results are copied.
const { parse, stringify } = JSON;

/** A value copied through JSON, or what stopped the copy. */
export type JsonSnapshot = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * A deep copy of `value` as JSON would carry it (`JSON.parse(JSON.stringify(value))`): plain
 * objects, arrays, strings, finite numbers, booleans and `null`, nothing that can change
 * afterwards. Getters and `toJSON` run once, here. `undefined`, a function or a symbol at
 * the top gives `undefined` (as `JSON.stringify` does); inside objects they are left out.
 * A cycle, a `BigInt`, a throwing getter, `toJSON` or proxy trap gives `{ ok: false, error }`.
 * Never throws.
 */
export function snapshotJson(value: unknown): JsonSnapshot {
  if (value === undefined) return { ok: true, value: undefined };
  try {
    const text: unknown = stringify(value);
    return { ok: true, value: typeof text === "string" ? parse(text) : undefined };
  } catch (error) {
    return { ok: false, error };
  }
}
