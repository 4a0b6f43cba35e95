/**
 * A one-line description of any thrown value, for messages the model reads: an `Error`'s
 * message, a string as is, `null`/`undefined` by name, other values as JSON when possible.
 * Never throws: a value that fights being read (a throwing `message` getter, a hostile
 * `Proxy`, a throwing `toJSON`) is described as `an unreadable <kind>`.
 */
export function describeError(value: unknown): string {
  try {
    return describeReadable(value);
  } catch {
    return describeUnreadable(value);
  }
}

function describeReadable(value: unknown): string {
  if (typeof value === "string") return value.trim() || "(empty string)";
  if (value === null || value === undefined) return String(value);
  if (typeof value !== "object" && typeof value !== "function") return String(value);
  const message = (value as { message?: unknown }).message;
  if (typeof message === "string" && message.trim() !== "") return message.trim() + refusal(value);
  if (value instanceof Error) return value.name;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // Circular or otherwise unserialisable: fall through to the tag.
  }
  return Object.prototype.toString.call(value);
}

/**
 * ` (…)` with the message of the permission model's refusal (`ERR_ACCESS_DENIED`) an error
 * wraps: Node 25+ refuses a tool host's network, and `fetch` then rejects with "fetch failed",
 * the refusal (and the flag that allows it) only in its `cause`.
 */
function refusal(value: object): string {
  const cause = (value as { cause?: unknown }).cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause !== "object" || cause === null || cause.code !== "ERR_ACCESS_DENIED") return "";
  return typeof cause.message === "string" ? ` (${cause.message.trim()})` : "";
}

function describeUnreadable(value: unknown): string {
  try {
    return `an unreadable ${Object.prototype.toString.call(value).slice(8, -1)}`;
  } catch {
    return "an unreadable value";
  }
}
