/** One change a module made to a process-wide built-in. */
export interface GlobalChange {
  /** Where, e.g. `Array.prototype.includes`, `globalThis.fetch`, `process listeners "exit"`. */
  name: string;
  change: "added" | "replaced" | "removed";
  /** True when Tooldock put the previous state back. */
  restored: boolean;
}

// The functions the check itself calls, taken before any tool module runs: a module that
// replaced `Reflect.ownKeys` or `Object.is` must be found and undone, not break the check.
const { defineProperty, deleteProperty, getOwnPropertyDescriptor, ownKeys } = Reflect;
const is = Object.is;
const listenerCount = process.listenerCount.bind(process);

/** Built-in prototypes: every own key is watched; enumerable additions are pollution and removed. */
const PROTOTYPES: ReadonlyArray<readonly [string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Function.prototype", Function.prototype],
  ["Array.prototype", Array.prototype],
  ["String.prototype", String.prototype],
  ["Number.prototype", Number.prototype],
  ["Boolean.prototype", Boolean.prototype],
  ["Symbol.prototype", Symbol.prototype],
  ["Promise.prototype", Promise.prototype],
  ["RegExp.prototype", RegExp.prototype],
  ["Date.prototype", Date.prototype],
  ["Map.prototype", Map.prototype],
  ["Set.prototype", Set.prototype],
  ["Error.prototype", Error.prototype],
];

/** Built-in namespaces and constructors: every own key is watched; additions (polyfills) are kept. */
const STATICS: ReadonlyArray<readonly [string, object]> = [
  ["Object", Object],
  ["Array", Array],
  ["Promise", Promise],
  ["JSON", JSON],
  ["Math", Math],
  ["Reflect", Reflect],
];

/** Well-known globals and `process` members: only these names are watched. */
const NAMED: ReadonlyArray<readonly [string, object, readonly string[]]> = [
  [
    "globalThis",
    globalThis,
    [
      "fetch",
      "Request",
      "Response",
      "Headers",
      "FormData",
      "WebSocket",
      "setTimeout",
      "setInterval",
      "setImmediate",
      "clearTimeout",
      "clearInterval",
      "clearImmediate",
      "queueMicrotask",
      "structuredClone",
      "URL",
      "URLSearchParams",
      "TextEncoder",
      "TextDecoder",
      "AbortController",
      "AbortSignal",
      "EventTarget",
      "Buffer",
      "process",
      "console",
      "Object",
      "Function",
      "Array",
      "String",
      "Number",
      "Boolean",
      "Symbol",
      "Promise",
      "RegExp",
      "Date",
      "Map",
      "Set",
      "Error",
      "JSON",
      "Math",
      "Reflect",
      "Proxy",
      "eval",
    ],
  ],
  // Not `chdir`: Node replaces it itself when `worker_threads` is first loaded.
  ["process", process, ["exit", "emit", "on", "once", "addListener", "nextTick", "kill", "abort"]],
];

/** `process` events whose listeners are counted: a module adding one changes how the host fails or ends. */
const PROCESS_EVENTS: readonly string[] = [
  "uncaughtException",
  "unhandledRejection",
  "exit",
  "beforeExit",
  "SIGINT",
  "SIGTERM",
];

interface Watched {
  name: string;
  owner: object;
  key: PropertyKey;
  descriptor: PropertyDescriptor | undefined;
  /** Enumerable additions are removed (prototype pollution); others are kept. */
  removeEnumerableAddition: boolean;
}

interface WatchedOwner {
  name: string;
  owner: object;
  removeEnumerableAddition: boolean;
  /** `ownKeys(owner)` when the snapshot was taken: the same list now means nothing was added. */
  keys: readonly PropertyKey[];
}

interface Snapshot {
  /** Every watched member, in a flat array: compared after every module. */
  watched: readonly Watched[];
  /** By member name, only read when an owner gained keys. */
  properties: Map<string, Watched>;
  owners: readonly WatchedOwner[];
  listeners: Map<string, number>;
}

/**
 * Takes a snapshot of the process-wide built-ins a tool module could tamper with: the
 * prototypes and namespaces of the language's built-ins, well-known globals (`fetch`, timers,
 * …), `process.exit` and friends, and the number of `process` listeners for the events that
 * decide how the host fails or ends. The returned function compares the present state with the
 * snapshot and undoes what can be undone safely:
 *
 * - a member **replaced or removed** is put back (the host's own built-ins are back);
 * - an **enumerable member added to a built-in prototype** is removed (it would show up in
 *   every `for…in` of the process: prototype pollution);
 * - other additions (a polyfill of a missing method or global) and added `process` listeners
 *   are kept, and reported.
 *
 * It lists every change, restored or not, and may be called again: each call compares with the
 * state the previous call left (one snapshot serves a whole batch, one comparison per module).
 */
export function watchGlobals(): () => GlobalChange[] {
  let before = takeSnapshot();
  return () => {
    const changes = compareAndRestore(before);
    // Kept additions become part of the state the next check compares with.
    if (changes.length > 0) before = takeSnapshot();
    return changes;
  };
}

function takeSnapshot(): Snapshot {
  const properties = new Map<string, Watched>();
  const owners: WatchedOwner[] = [];
  const add = (name: string, owner: object, key: PropertyKey, removeEnumerableAddition: boolean) => {
    properties.set(memberName(name, key), {
      name: memberName(name, key),
      owner,
      key,
      descriptor: getOwnPropertyDescriptor(owner, key),
      removeEnumerableAddition,
    });
  };
  for (const [name, owner] of PROTOTYPES) {
    const keys = ownKeys(owner);
    owners.push({ name, owner, removeEnumerableAddition: true, keys });
    for (const key of keys) add(name, owner, key, true);
  }
  for (const [name, owner] of STATICS) {
    const keys = ownKeys(owner);
    owners.push({ name, owner, removeEnumerableAddition: false, keys });
    for (const key of keys) add(name, owner, key, false);
  }
  for (const [name, owner, keys] of NAMED) for (const key of keys) add(name, owner, key, false);
  const listeners = new Map(PROCESS_EVENTS.map((event) => [event, listenerCount(event)]));
  return { watched: [...properties.values()], properties, owners, listeners };
}

/** True when `now` holds exactly the keys of `before`, in the same order. */
function sameKeys(before: readonly PropertyKey[], now: readonly PropertyKey[]): boolean {
  if (before.length !== now.length) return false;
  for (let index = 0; index < now.length; index += 1) if (before[index] !== now[index]) return false;
  return true;
}

function compareAndRestore(before: Snapshot): GlobalChange[] {
  const changes: GlobalChange[] = [];
  for (const watched of before.watched) {
    const now = getOwnPropertyDescriptor(watched.owner, watched.key);
    if (watched.descriptor === undefined) {
      if (now === undefined) continue;
      // A watched name that did not exist before (e.g. a `WebSocket` polyfill): an addition.
      changes.push({ name: watched.name, change: "added", restored: false });
      continue;
    }
    if (now !== undefined && sameDescriptor(watched.descriptor, now)) continue;
    if (now !== undefined && isMaterialisedLazyGlobal(watched, now)) continue;
    const restored = defineProperty(watched.owner, watched.key, watched.descriptor);
    changes.push({ name: watched.name, change: now === undefined ? "removed" : "replaced", restored });
  }
  for (const { name, owner, removeEnumerableAddition, keys } of before.owners) {
    const now = ownKeys(owner);
    // The cheap first check: the same key list means no key was added (a removal is found
    // above); names are built and looked up only for an owner whose keys changed.
    if (sameKeys(keys, now)) continue;
    for (const key of now) {
      const member = memberName(name, key);
      if (before.properties.has(member)) continue;
      const descriptor = getOwnPropertyDescriptor(owner, key);
      const remove = removeEnumerableAddition && descriptor?.enumerable === true;
      const restored = remove && deleteProperty(owner, key);
      changes.push({ name: member, change: "added", restored });
    }
  }
  for (const [event, count] of before.listeners) {
    const now = listenerCount(event);
    if (now > count) changes.push({ name: `process listener "${event}"`, change: "added", restored: false });
    else if (now < count)
      changes.push({ name: `process listener "${event}"`, change: "removed", restored: false });
  }
  return changes;
}

/**
 * Node (and test runners) define some globals as lazy accessors that replace themselves with a
 * data property on first use (`TextEncoder` under vitest). That is not tampering: the old
 * getter still returns the new value.
 */
function isMaterialisedLazyGlobal(watched: Watched, now: PropertyDescriptor): boolean {
  const getter = watched.descriptor?.get;
  if (getter === undefined || now.get !== undefined) return false;
  try {
    return is(getter.call(watched.owner), now.value);
  } catch {
    return false;
  }
}

function memberName(owner: string, key: PropertyKey): string {
  return typeof key === "symbol" ? `${owner}[${key.description ?? "symbol"}]` : `${owner}.${key}`;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    is(a.value, b.value) &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}

/** Describes a list of changes for a diagnostic: `Array.prototype.includes (replaced, restored)`. */
export function describeGlobalChanges(changes: readonly GlobalChange[]): string {
  return changes
    .map((entry) => {
      const undone = entry.change === "added" ? "removed" : "restored";
      return `${entry.name} (${entry.change}${entry.restored ? `, ${undone}` : ", kept"})`;
    })
    .join(", ");
}
