import { EventEmitter } from "node:events";
import {
  ArrayPrototypePush,
  MapPrototypeGet,
  MapPrototypeSet,
  ObjectIs,
  ReflectApply,
  ReflectDefineProperty,
  ReflectDeleteProperty,
  ReflectGetOwnPropertyDescriptor,
  ReflectGetPrototypeOf,
  ReflectOwnKeys,
  SymbolPrototypeGetDescription,
} from "./primordials.js";

/** One change a module made to a process-wide built-in. */
export interface GlobalChange {
  /** Where, e.g. `Array.prototype.includes`, `globalThis.fetch`, `process listeners "exit"`. */
  name: string;
  change: "added" | "replaced" | "removed";
  /** True when Tooldock put the previous state back. */
  restored: boolean;
}

// The functions the check itself calls, taken before any tool module runs (see
// ./primordials.ts): a module that replaced `Reflect.ownKeys`, `Object.is`, array or map
// methods or their iterators must be found and undone, not break the check.
const defineProperty = ReflectDefineProperty;
const deleteProperty = ReflectDeleteProperty;
const getOwnPropertyDescriptor = ReflectGetOwnPropertyDescriptor;
const ownKeys = ReflectOwnKeys;
const is = ObjectIs;
const originalListenerCount = EventEmitter.prototype.listenerCount;
const listenerCount = (event: string): number => ReflectApply(originalListenerCount, process, [event]);

/** The prototype of the iterators of arrays, maps and sets, and theirs. */
const ArrayIteratorPrototype = ReflectGetPrototypeOf([][Symbol.iterator]()) as object;
const MapIteratorPrototype = ReflectGetPrototypeOf(new Map()[Symbol.iterator]()) as object;
const SetIteratorPrototype = ReflectGetPrototypeOf(new Set()[Symbol.iterator]()) as object;
const IteratorPrototype = ReflectGetPrototypeOf(ArrayIteratorPrototype) as object;

/**
 * Members never legitimately added to a built-in prototype, whatever their enumerability:
 * `then` makes every object a "thenable" that `await` and promise resolution call into (a
 * non-enumerable one hung the load, and would hang the host).
 */
const NEVER_ADDED: readonly PropertyKey[] = ["then"];

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
  ["%IteratorPrototype%", IteratorPrototype],
  ["%ArrayIteratorPrototype%", ArrayIteratorPrototype],
  ["%MapIteratorPrototype%", MapIteratorPrototype],
  ["%SetIteratorPrototype%", SetIteratorPrototype],
  // `process.on`, `emit`, … are inherited from here.
  ["EventEmitter.prototype", EventEmitter.prototype],
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
  // Not `chdir`: Node replaces it itself when `worker_threads` is first loaded. Most of the
  // listener methods are inherited: an own one assigned by a module shadows the real one.
  [
    "process",
    process,
    [
      "exit",
      "reallyExit",
      "abort",
      "kill",
      "_kill",
      "emit",
      "on",
      "once",
      "addListener",
      "prependListener",
      "off",
      "removeListener",
      "removeAllListeners",
      "listeners",
      "listenerCount",
      "nextTick",
    ],
  ],
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
  /** The owner's name (`Array.prototype`); the member's name is built only for a change. */
  ownerName: string;
  owner: object;
  key: PropertyKey;
  descriptor: PropertyDescriptor | undefined;
  /**
   * No own member but an inherited one (`process.on` is `EventEmitter.prototype.on`): an own
   * member added later shadows it, a replacement that is undone by removing it.
   */
  inherited: boolean;
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
 *   every `for…in` of the process: prototype pollution), and so is a `then` of any kind (it
 *   would turn every object into a thenable that `await` calls into);
 * - an own member that **shadows an inherited one** of a watched name (`process.on = …`, where
 *   `process.on` is `EventEmitter.prototype.on`) is removed: a replacement, restored;
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
  const watched: Watched[] = [];
  const owners: WatchedOwner[] = [];
  // No member name is built here (one string per member, several hundred): a change builds
  // its own. Owners and the names listed for each are distinct, so no member comes twice.
  const add = (ownerName: string, owner: object, key: PropertyKey, removeEnumerableAddition: boolean) => {
    const descriptor = getOwnPropertyDescriptor(owner, key);
    ArrayPrototypePush(watched, {
      ownerName,
      owner,
      key,
      descriptor,
      inherited: descriptor === undefined && key in owner,
      removeEnumerableAddition,
    });
  };
  const addOwners = (list: ReadonlyArray<readonly [string, object]>, removeEnumerableAddition: boolean) => {
    for (let index = 0; index < list.length; index++) {
      const [name, owner] = list[index] as readonly [string, object];
      const keys = ownKeys(owner);
      ArrayPrototypePush(owners, { name, owner, removeEnumerableAddition, keys });
      for (let at = 0; at < keys.length; at++)
        add(name, owner, keys[at] as PropertyKey, removeEnumerableAddition);
    }
  };
  addOwners(PROTOTYPES, true);
  addOwners(STATICS, false);
  for (let index = 0; index < NAMED.length; index++) {
    const [name, owner, keys] = NAMED[index] as readonly [string, object, readonly string[]];
    for (let at = 0; at < keys.length; at++) add(name, owner, keys[at] as string, false);
  }
  const listeners = new Map<string, number>();
  for (let index = 0; index < PROCESS_EVENTS.length; index++) {
    const event = PROCESS_EVENTS[index] as string;
    MapPrototypeSet(listeners, event, listenerCount(event));
  }
  return { watched, owners, listeners };
}

/** True when `now` holds exactly the keys of `before`, in the same order. */
function sameKeys(before: readonly PropertyKey[], now: readonly PropertyKey[]): boolean {
  if (before.length !== now.length) return false;
  for (let index = 0; index < now.length; index += 1) if (before[index] !== now[index]) return false;
  return true;
}

function compareAndRestore(before: Snapshot): GlobalChange[] {
  const changes: GlobalChange[] = [];
  const record = (name: string, change: GlobalChange["change"], restored: boolean) =>
    ArrayPrototypePush(changes, { name, change, restored });
  for (let index = 0; index < before.watched.length; index++) {
    const watched = before.watched[index] as Watched;
    const now = getOwnPropertyDescriptor(watched.owner, watched.key);
    if (watched.descriptor === undefined) {
      if (now === undefined) continue;
      if (watched.inherited) {
        // An own member over an inherited one: remove it, and the inherited one is back.
        record(
          memberName(watched.ownerName, watched.key),
          "replaced",
          deleteProperty(watched.owner, watched.key),
        );
        continue;
      }
      // A watched name that did not exist before (e.g. a `WebSocket` polyfill): an addition.
      record(memberName(watched.ownerName, watched.key), "added", false);
      continue;
    }
    if (now !== undefined && sameDescriptor(watched.descriptor, now)) continue;
    if (now !== undefined && isMaterialisedLazyGlobal(watched, now)) continue;
    const restored = defineProperty(watched.owner, watched.key, watched.descriptor);
    record(memberName(watched.ownerName, watched.key), now === undefined ? "removed" : "replaced", restored);
  }
  for (let index = 0; index < before.owners.length; index++) {
    const { name, owner, removeEnumerableAddition, keys } = before.owners[index] as WatchedOwner;
    const now = ownKeys(owner);
    // The cheap first check: the same key list means no key was added (a removal is found
    // above); names are built and looked up only for an owner whose keys changed.
    if (sameKeys(keys, now)) continue;
    for (let at = 0; at < now.length; at++) {
      const key = now[at] as PropertyKey;
      if (includesKey(keys, key)) continue;
      const member = memberName(name, key);
      const descriptor = getOwnPropertyDescriptor(owner, key);
      const remove = removeEnumerableAddition && (descriptor?.enumerable === true || isNeverAdded(key));
      const restored = remove && deleteProperty(owner, key);
      record(member, "added", restored);
    }
  }
  for (let index = 0; index < PROCESS_EVENTS.length; index++) {
    const event = PROCESS_EVENTS[index] as string;
    const count = MapPrototypeGet(before.listeners, event) ?? 0;
    const now = listenerCount(event);
    if (now > count) record(`process listener "${event}"`, "added", false);
    else if (now < count) record(`process listener "${event}"`, "removed", false);
  }
  return changes;
}

/** Whether `keys` holds `key` (a plain loop: the built-ins may be tampered with while this runs). */
function includesKey(keys: readonly PropertyKey[], key: PropertyKey): boolean {
  for (let index = 0; index < keys.length; index++) if (keys[index] === key) return true;
  return false;
}

function isNeverAdded(key: PropertyKey): boolean {
  for (let index = 0; index < NEVER_ADDED.length; index++) if (NEVER_ADDED[index] === key) return true;
  return false;
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
    return is(ReflectApply(getter, watched.owner, []), now.value);
  } catch {
    return false;
  }
}

function memberName(owner: string, key: PropertyKey): string {
  return typeof key === "symbol"
    ? `${owner}[${SymbolPrototypeGetDescription(key) ?? "symbol"}]`
    : `${owner}.${key as string}`;
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
