import { describeError } from "../../util/describe-error.js";
import { type ToolCallErrorLocation, toolFrameLocation } from "./stack-location.js";

/** Most characters of `message` kept in a {@link ToolCallError}; the rest is cut with a marker. */
export const MAX_ERROR_MESSAGE_CHARS = 10_000;
/** Most characters of `stack` kept in a {@link ToolCallError}; cut at a line, with a marker. */
export const MAX_ERROR_STACK_CHARS = 20_000;
/** Most characters of `name` and `code`. */
const MAX_ERROR_LABEL_CHARS = 200;

// Captured when this module is evaluated: a tool cannot change how its error is read.
const reflectGet = Reflect.get;

/**
 * What a tool threw (or rejected with), read once into plain strings and numbers for the
 * `tool-call-end` event and the host: safe to log, compare and `JSON.stringify`.
 *
 * - `message`: the same description the model reads after `Tool "x" failed: ` (an `Error`'s
 *   message, a thrown string, `null`, JSON of a plain object, `an unreadable <kind>`, …).
 * - `name`, `code`: the thrown object's `name` and `code` when they are strings (a number
 *   `code`, as some Node errors carry, is written as a string).
 * - `stack`: the thrown object's `stack` as Node formats it, so with source maps on (the
 *   loader turns them on) its frames name the `.ts` source lines; at most
 *   {@link MAX_ERROR_STACK_CHARS} characters.
 * - `location`: the first frame of `stack` in the file the tool was registered from (its
 *   `origin`), that is the tool's own line that threw or called what threw.
 */
export interface ToolCallError {
  message: string;
  name?: string;
  code?: string;
  stack?: string;
  location?: ToolCallErrorLocation;
}

export type { ToolCallErrorLocation };

/**
 * Reads a thrown value into a {@link ToolCallError}; `description` is the `describeError` of it
 * the caller already has (the text the model reads), so its `message` is not read twice. Never throws: each of `name`, `code` and
 * `stack` is read exactly once (a getter that throws, a `Proxy` whose traps throw, a revoked
 * `Proxy` leave that field out; one that changes between reads is seen once), values that
 * are not strings are left out, and every string is capped.
 */
export function readToolCallError(
  thrown: unknown,
  origin: string,
  description: string = describeError(thrown),
): ToolCallError {
  const error: ToolCallError = { message: cap(description, MAX_ERROR_MESSAGE_CHARS) };
  if ((typeof thrown !== "object" || thrown === null) && typeof thrown !== "function") return error;
  const name = readLabel(thrown, "name");
  if (name !== undefined) error.name = name;
  const code = readLabel(thrown, "code");
  if (code !== undefined) error.code = code;
  const stack = readField(thrown, "stack");
  if (typeof stack === "string" && stack !== "") {
    error.stack = capStack(stack);
    const location = toolFrameLocation(error.stack, origin);
    if (location !== undefined) error.location = location;
  }
  return error;
}

function readField(value: object, key: string): unknown {
  try {
    return reflectGet(value, key);
  } catch {
    return undefined;
  }
}

function readLabel(value: object, key: "name" | "code"): string | undefined {
  const field = readField(value, key);
  if (typeof field === "number" && Number.isFinite(field)) return String(field);
  if (typeof field !== "string" || field === "") return undefined;
  return cap(field, MAX_ERROR_LABEL_CHARS);
}

function cap(text: string, most: number): string {
  if (text.length <= most) return text;
  return `${text.slice(0, most)}… [truncated ${text.length - most} characters]`;
}

function capStack(stack: string): string {
  if (stack.length <= MAX_ERROR_STACK_CHARS) return stack;
  const cut = stack.lastIndexOf("\n", MAX_ERROR_STACK_CHARS);
  const end = cut > 0 ? cut : MAX_ERROR_STACK_CHARS;
  return `${stack.slice(0, end)}\n    … [truncated ${stack.length - end} characters]`;
}
