/** Nesting deeper than this (a cycle, say) is left to `structuredClone`. */
const MAX_DEPTH = 100;
/** Objects and arrays copied before the rest is left to `structuredClone` (shared subtrees). */
const MAX_CONTAINERS = 10_000;
/** Returned by the fast copy when the value is not plain JSON-like data. */
const NOT_PLAIN = Symbol("not plain");

/**
 * A deep copy of the arguments for the tool to own, so a tool that mutates its `params`
 * cannot change the host's record of what the model sent. Arguments from a model are JSON:
 * plain objects, arrays and primitives are copied by a recursive walk, which is several times
 * faster than `structuredClone` for a few fields. Anything else (a `Date`, a `Map`, a class
 * instance, a hole in an array, a cycle, deep nesting) is copied by `structuredClone`, and a
 * value it refuses (a function, a class with private state) is passed as is.
 *
 * Both copy own enumerable string keys (a `"__proto__"` key stays an own property) and give a
 * null-prototype object `Object.prototype`. The walk does not keep shared references shared,
 * nor copy named properties on an array, which JSON cannot express.
 */
export function copyParams(params: unknown): unknown {
  try {
    const copy = copyPlain(params, 0, { containers: 0 });
    if (copy !== NOT_PLAIN) return copy;
    return structuredClone(params);
  } catch {
    return params;
  }
}

function copyPlain(value: unknown, depth: number, budget: { containers: number }): unknown {
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  }
  if (depth >= MAX_DEPTH || ++budget.containers > MAX_CONTAINERS) return NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item === undefined && !(index in value)) return NOT_PLAIN;
      const copied = copyPlain(item, depth + 1, budget);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      copy.push(copied);
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const copied = copyPlain(record[key], depth + 1, budget);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    if (key === "__proto__")
      Object.defineProperty(copy, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = copied;
  }
  return copy;
}
