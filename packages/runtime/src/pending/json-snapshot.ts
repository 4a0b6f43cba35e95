import { types } from "node:util";

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
 * Never throws. `replacer` is `JSON.stringify`'s (see {@link snapshotJsonData}).
 */
export function snapshotJson(
  value: unknown,
  replacer?: (this: unknown, key: string, item: unknown) => unknown,
): JsonSnapshot {
  if (value === undefined) return { ok: true, value: undefined };
  try {
    const text: unknown = stringify(value, replacer);
    return { ok: true, value: typeof text === "string" ? parse(text) : undefined };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * As {@link snapshotJson}, for data a store keeps (a pending action's `payload` and
 * `details`): refuses, with the place named from `root` (`payload.files`), what JSON would
 * change without a word: a `Map`, `Set`, `RegExp`, `Error`, typed array, buffer or promise
 * (written as `{}` or as an object of indexes), a `NaN` or infinite number (written as `null`),
 * a function or symbol (left out), and `undefined` in an array (written as `null`). A
 * property that is `undefined` is left out as JSON leaves it: reading it still gives
 * `undefined`. `toJSON` is the value's own choice and is honoured.
 */
export function snapshotJsonData(value: unknown, root: string): JsonSnapshot {
  const paths = new WeakMap<object, string>();
  function check(this: unknown, key: string, item: unknown): unknown {
    const holder = this as object;
    const parent = paths.get(holder);
    const path = parent === undefined ? root : placeOf(parent, key, Array.isArray(holder));
    const changed = silentChange(item, Array.isArray(holder));
    if (changed !== undefined) throw new JsonDataError(`${path} ${changed}`);
    if (typeof item === "object" && item !== null) paths.set(item, path);
    return item;
  }
  return snapshotJson(value, check);
}

/** What {@link snapshotJsonData} refused: a value JSON would change, and where. */
export class JsonDataError extends TypeError {
  override name = "JsonDataError";
}

/** `parent.key`, `parent[0]`, or `parent["a key"]`. */
function placeOf(parent: string, key: string, inArray: boolean): string {
  if (inArray) return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${stringify(key)}]`;
}

/** How JSON would change `item` without saying so, or `undefined` when it carries it as it is. */
function silentChange(item: unknown, inArray: boolean): string | undefined {
  switch (typeof item) {
    case "number":
      return Number.isFinite(item) ? undefined : `is ${String(item)}, which JSON writes as null`;
    case "bigint":
      return "is a BigInt, which JSON cannot write; pass it as a string";
    case "function":
    case "symbol":
      return `is a ${typeof item}, which JSON ${inArray ? "writes as null" : "leaves out"}`;
    case "undefined":
      return inArray ? "is undefined, which JSON writes as null in an array" : undefined;
    case "object":
      return item === null ? undefined : objectChange(item);
    default:
      return undefined;
  }
}

function objectChange(item: object): string | undefined {
  if (types.isMap(item)) return "is a Map, which JSON writes as {}; pass [...map] or Object.fromEntries(map)";
  if (types.isSet(item)) return "is a Set, which JSON writes as {}; pass [...set]";
  if (types.isTypedArray(item) || types.isAnyArrayBuffer(item) || types.isDataView(item))
    return "is binary data, which JSON writes as an object of indexes or {}; pass an array of numbers or a base64 string";
  const kind = types.isRegExp(item)
    ? "a RegExp"
    : types.isNativeError(item)
      ? "an Error"
      : types.isWeakMap(item) || types.isWeakSet(item)
        ? "a weak collection"
        : types.isPromise(item)
          ? "a promise"
          : undefined;
  return kind === undefined ? undefined : `is ${kind}, which JSON writes as {}; pass the data it holds`;
}
