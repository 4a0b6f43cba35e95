/** Nesting deeper than this (a cycle, say) is left to `structuredClone`. */
const MAX_DEPTH = 100;
/** Objects and arrays copied before the rest is left to `structuredClone` (shared subtrees). */
const MAX_CONTAINERS = 10_000;
/** Returned by the fast copy when the value is not plain JSON-like data. */
const NOT_PLAIN = Symbol("not plain");

// Captured when this module is evaluated, before any tool module can replace them.
const getPrototypeOf = Object.getPrototypeOf;
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const arrayPrototype = Array.prototype;
const objectPrototype = Object.prototype;
const structuredCloneIntrinsic = structuredClone;

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
 * nor copy named properties on an array, which JSON cannot express. An object is copied with
 * spread syntax (V8 clones its shape at once; assigning key by key was about 15 % of a
 * call's CPU profile), which also copies symbol-keyed properties, as they are: JSON has none,
 * and a host that passes some shares them with the tool.
 */
export function copyParams(params: unknown): unknown {
  if (typeof params !== "object" || params === null) return params;
  try {
    const copy = copyContainer(params, 0, { containers: 0 });
    if (copy !== NOT_PLAIN) return copy;
    return structuredCloneIntrinsic(params);
  } catch {
    return params;
  }
}

/** A copy of an object or array of JSON-like data, or {@link NOT_PLAIN}. */
function copyContainer(value: object, depth: number, budget: { containers: number }): unknown {
  if (depth >= MAX_DEPTH || ++budget.containers > MAX_CONTAINERS) return NOT_PLAIN;
  if (isArray(value)) {
    if (getPrototypeOf(value) !== arrayPrototype) return NOT_PLAIN;
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item === undefined && !(index in value)) return NOT_PLAIN;
      const copied = copyValue(item, depth, budget);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      copy.push(copied);
    }
    return copy;
  }
  const prototype: unknown = getPrototypeOf(value);
  if (prototype !== objectPrototype && prototype !== null) return NOT_PLAIN;
  // Each getter runs once, here; an own "__proto__" key stays an own property.
  const copy: Record<string, unknown> = { ...value };
  // for-in over the copy: V8 reads each field through the shape's enum cache (an indexed
  // Object.keys loop made a megamorphic keyed load per field). It also visits enumerable
  // keys inherited from a tampered Object.prototype, which are skipped.
  for (const key in copy) {
    const field = copy[key];
    if (typeof field !== "object" || field === null) {
      if ((typeof field === "function" || typeof field === "symbol") && hasOwn(copy, key)) return NOT_PLAIN;
      continue;
    }
    if (!hasOwn(copy, key)) continue;
    const copied = copyContainer(field, depth + 1, budget);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = copied;
  }
  return copy;
}

function copyValue(value: unknown, depth: number, budget: { containers: number }): unknown {
  if (typeof value !== "object" || value === null)
    return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  return copyContainer(value, depth + 1, budget);
}
