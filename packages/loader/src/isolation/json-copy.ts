/** `value` as JSON carries it, or `undefined` when it cannot be written as JSON. Never throws. */
export function jsonCopy(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
