/** `value` as JSON text, or `undefined` when it cannot be written as JSON. Never throws. */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** `value` as JSON carries it, or `undefined` when it cannot be written as JSON. Never throws. */
export function jsonCopy(value: unknown): unknown {
  const text = jsonText(value);
  return text === undefined ? undefined : JSON.parse(text);
}
