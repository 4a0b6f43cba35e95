/** `read()`, or `undefined` when it throws (a getter or a Proxy trap of a value read once). */
export function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
