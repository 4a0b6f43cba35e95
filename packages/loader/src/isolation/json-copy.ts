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

/**
 * `value` as JSON carries it, for a message of the tool host to the host; throws a `TypeError`
 * naming `what` (`pi.sendMessage`) when JSON cannot carry it (a BigInt, a cycle, a throwing
 * `toJSON`), so the tool that sent it learns why, where in-process the value would have gone
 * as it is.
 */
export function crossingCopy(value: unknown, what: string): unknown {
  let reason = "";
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return JSON.parse(text);
  } catch (error) {
    reason = `: ${error instanceof Error ? error.message : String(error)}`;
  }
  throw new TypeError(
    `${what}: what it was given cannot cross to the host, which runs this tool in a tool host and takes JSON data only${reason}.`,
  );
}
