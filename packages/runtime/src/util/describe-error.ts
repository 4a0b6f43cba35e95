/**
 * A one-line description of any thrown value, for messages the model reads: an `Error`'s
 * message, a string as is, `null`/`undefined` by name, other values as JSON when possible.
 */
export function describeError(value: unknown): string {
  if (value instanceof Error) return value.message.trim() || value.name;
  if (typeof value === "string") return value.trim() || "(empty string)";
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") {
    const message = (value as { message?: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") return message.trim();
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // Circular or otherwise unserialisable: fall through to the tag.
    }
    return Object.prototype.toString.call(value);
  }
  return String(value);
}
