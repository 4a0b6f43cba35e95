import { clearTimeout, setImmediate, setTimeout } from "node:timers";
import { types } from "node:util";

/**
 * The built-ins the loader calls while tool modules load, taken when this module is
 * evaluated, before any tool module runs (as Node's core keeps its "primordials"). A tool
 * module may replace `Promise.race`, `Array.isArray`, `Function.prototype.call`, array and
 * map methods, or add `Object.prototype.then`; the global check puts such changes back after
 * each module, but until then (and while a module's import or factory is still running) the
 * loader's own steps use these copies, so a module can neither hang the load nor make it
 * throw. Prototype methods are "uncurried": `ArrayPrototypePush(array, value)` calls the
 * original `Array.prototype.push` through the original `Function.prototype.call` (bound
 * once, here), with no lookup on the array and no argument list to build.
 */

const { apply, defineProperty, deleteProperty, getOwnPropertyDescriptor, getPrototypeOf, ownKeys } = Reflect;

export const ReflectApply = apply;
export const ReflectDefineProperty = defineProperty;
export const ReflectDeleteProperty = deleteProperty;
export const ReflectGetOwnPropertyDescriptor = getOwnPropertyDescriptor;
export const ReflectGetPrototypeOf = getPrototypeOf;
export const ReflectOwnKeys = ownKeys;

export const ObjectIs = Object.is;
export const ArrayIsArray = Array.isArray;
export const NumberCtor = Number;
export const NumberIsInteger = Number.isInteger;
export const StringCtor = String;
export const PromiseCtor = Promise;
const ObjectPrototype = Object.prototype;
const FunctionPrototype = Function.prototype;
const ArrayPrototype = Array.prototype;

// biome-ignore lint/suspicious/noExplicitAny: an uncurried method takes whatever its original takes.
type AnyFunction = (...args: any[]) => any;

/**
 * `method.call(self, ...args)` as a function of `(self, ...args)`: the original `call` bound
 * to `method` (as Node's core does it), so replacing `Function.prototype.call` or `bind`
 * later changes nothing, and a call allocates nothing.
 */
const bindCall = Function.prototype.bind.bind(Function.prototype.call) as <T extends AnyFunction>(
  method: T,
) => (self: unknown, ...args: Parameters<T>) => ReturnType<T>;
function uncurryThis<T extends AnyFunction>(
  method: T,
): (self: unknown, ...args: Parameters<T>) => ReturnType<T> {
  return bindCall(method);
}

export const PromisePrototypeThen = uncurryThis(Promise.prototype.then) as <T>(
  promise: Promise<T>,
  onFulfilled: (value: T) => void,
  onRejected: (reason: unknown) => void,
) => Promise<void>;
export const ArrayPrototypePush = uncurryThis(Array.prototype.push) as <T>(
  array: T[],
  ...items: T[]
) => number;
export const MapPrototypeGet = uncurryThis(Map.prototype.get) as <K, V>(
  map: Map<K, V>,
  key: K,
) => V | undefined;
export const MapPrototypeSet = uncurryThis(Map.prototype.set) as <K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
) => Map<K, V>;
export const MapPrototypeHas = uncurryThis(Map.prototype.has) as <K, V>(map: Map<K, V>, key: K) => boolean;
export const SetPrototypeAdd = uncurryThis(Set.prototype.add) as <T>(set: Set<T>, value: T) => Set<T>;
export const SetPrototypeDelete = uncurryThis(Set.prototype.delete) as <T>(set: Set<T>, value: T) => boolean;
const symbolDescription = getOwnPropertyDescriptor(Symbol.prototype, "description")?.get as (
  this: symbol,
) => string | undefined;
export const SymbolPrototypeGetDescription = (symbol: symbol): string | undefined =>
  apply(symbolDescription, symbol, []);

/**
 * Whether a value is a native promise, asked of V8 without a lookup on the value (no getter
 * or Proxy trap runs) and without throwing: a Proxy of a promise is not one.
 */
export const IsPromise: (value: unknown) => value is Promise<unknown> = types.isPromise;

export { clearTimeout as SafeClearTimeout, setImmediate as SafeSetImmediate, setTimeout as SafeSetTimeout };

/**
 * A promise settled by `executor` that is safe to `await` while a tool module may have
 * tampered with `Promise.prototype`: its own `constructor` property makes `await` take it
 * as it is (no `then` lookup, no species), and the value it settles with should be a
 * primitive or a null-prototype object (no `Object.prototype.then` to follow).
 */
export function safePromise<T>(
  executor: (resolve: (value: T) => void, reject: (reason: unknown) => void) => void,
): Promise<T> {
  const promise = new PromiseCtor<T>(executor);
  defineProperty(promise, "constructor", {
    value: PromiseCtor,
    writable: false,
    enumerable: false,
    configurable: false,
  });
  return promise;
}

/**
 * Where `then` on `value` comes from, when it is inherited from a built-in prototype
 * (`Object.prototype`, `Function.prototype`, `Array.prototype`): then `value` is not a real
 * thenable but a victim of prototype tampering, and its `then` must not be called.
 */
export function inheritsBuiltInThen(value: object): boolean {
  let owner: object | null = value;
  for (let depth = 0; owner !== null && depth < 64; depth++) {
    if (getOwnPropertyDescriptor(owner, "then") !== undefined)
      return owner === ObjectPrototype || owner === FunctionPrototype || owner === ArrayPrototype;
    owner = getPrototypeOf(owner);
  }
  return false;
}
