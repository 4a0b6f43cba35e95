/**
 * `next(value)`: at once when `value` is not a promise (a step that settled synchronously: no
 * promise, no turn of the microtask queue), else once it has settled.
 */
export function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
