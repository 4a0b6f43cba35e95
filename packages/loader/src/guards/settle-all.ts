import { PromisePrototypeThen, safePromise } from "./primordials.js";

/**
 * Resolves (with nothing) once every promise has settled, fulfilled or rejected: what
 * `await Promise.allSettled(promises)` is used for, without `Promise.allSettled` (a tool
 * module may replace it) and without an array of result objects (a promise resolved with one
 * would follow a hostile `Object.prototype.then`).
 */
export function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  return safePromise<void>((resolve) => {
    let waiting = promises.length;
    if (waiting === 0) {
      resolve();
      return;
    }
    const one = () => {
      waiting -= 1;
      if (waiting === 0) resolve();
    };
    for (let index = 0; index < promises.length; index++)
      PromisePrototypeThen(promises[index] as Promise<unknown>, one, one);
  });
}
