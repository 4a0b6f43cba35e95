import { TooldockError } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { quoted } from "../util/quoted.js";
import { STAGED_IN_TOOL_HOST } from "./callback-marks.js";
import { JsonDataError, snapshotJsonData } from "./json-snapshot.js";

// Captured when this module is evaluated: a tool module that replaces `Reflect.apply` (or a
// callback with an own `call` property) cannot change how callbacks are called.
const reflectApply = Reflect.apply;

/**
 * A pending action as the store keeps it: every field read exactly once, at push, into
 * values that cannot change afterwards. A closure action (`form: "closure"`) keeps the
 * `apply` and `reject` functions read then, called with the pushed object as `this`, so
 * actions that are class instances keep their methods and state. A durable action
 * (`form: "data"`) keeps the name of its tool's handler and a JSON copy of its payload.
 */
export type PendingActionSnapshot = ClosureActionSnapshot | DataActionSnapshot;

interface SnapshotBase {
  readonly label: string;
  /** Undefined when the action named none; the store fills in its default. */
  readonly sourceToolName: string | undefined;
  /** A JSON copy of `details`; undefined when there were none. */
  readonly details: unknown;
}

/** A pending action given as callbacks (`CustomToolPendingAction`). */
export interface ClosureActionSnapshot extends SnapshotBase {
  readonly form: "closure";
  readonly apply: (reason: string) => unknown;
  readonly reject: ((reason: string) => unknown) | undefined;
  /** The pushed object, `this` of `apply` and `reject`. */
  readonly target: object;
}

/** A pending action given as data (`CustomToolDurableAction`). */
export interface DataActionSnapshot extends SnapshotBase {
  readonly form: "data";
  /** The key of the handler in the source tool's `actions`. */
  readonly handler: string;
  /** A frozen JSON copy of the payload. */
  readonly payload: unknown;
  /** The working folder of the session that staged it: its handler's `ctx.cwd` wherever it runs. */
  readonly cwd?: string | undefined;
  /** Staged by a tool in a tool host (see `STAGED_IN_TOOL_HOST`): its handler runs in one. */
  readonly isolated?: true;
}

/**
 * Reads a pushed value once, field by field (`label`, `handler`, `apply`, `reject`,
 * `payload`, `sourceToolName`, `details`: one read each, so a getter or a proxy trap runs
 * once), and checks what it read. A value with a `handler` is a durable action: a non-empty
 * string `handler`, JSON `payload` (required), and no `apply` or `reject`. Otherwise `apply`
 * must be a function and `reject` a function or absent. Throws a `TooldockError`
 * `E_INVALID_PENDING_ACTION` unless the label is a non-empty string, `sourceToolName` a
 * string or absent, and `details` (and `payload`) absent or JSON data: a cycle, a throwing
 * getter or `toJSON`, and what JSON would change without a word (a `Map`, a `NaN`, a
 * function, …: see `snapshotJsonData`, whose message names the place) are refused. A read
 * that throws is refused the same way.
 */
export function snapshotPendingAction(value: unknown): PendingActionSnapshot {
  if (typeof value !== "object" || value === null) {
    throw invalid(`expected an object, got ${value === null ? "null" : typeof value}`);
  }
  const label = read(value, "label");
  if (typeof label !== "string" || label.trim() === "") {
    throw invalid(`label must be a non-empty string, got ${describeKind(label)}`);
  }
  const named = `(label ${quoted(label)})`;
  const handler = read(value, "handler", named);
  const apply = read(value, "apply", named);
  const reject = read(value, "reject", named);
  const sourceToolName = read(value, "sourceToolName", named);
  if (sourceToolName !== undefined && typeof sourceToolName !== "string") {
    throw invalid(`sourceToolName must be a string when given ${named}`);
  }
  if (handler !== undefined) {
    if (typeof handler !== "string" || handler.trim() === "")
      throw invalid(`handler must be the non-empty name of one of the tool's actions ${named}`);
    if (apply !== undefined || reject !== undefined)
      throw invalid(
        `give either a handler (a durable action) or apply and reject (callbacks), not both ${named}`,
      );
    const payload = snapshotJsonField(read(value, "payload", named), "payload", named);
    if (payload === undefined) throw invalid(`a durable action needs a JSON payload ${named}`);
    const details = snapshotJsonField(read(value, "details", named), "details", named);
    return Object.freeze({
      form: "data",
      label,
      sourceToolName,
      details,
      handler,
      payload: deepFreeze(payload),
      ...(stagedInToolHost(value) ? { isolated: true as const } : {}),
    });
  }
  if (typeof apply !== "function") throw invalid(`apply must be a function ${named}`);
  if (reject !== undefined && typeof reject !== "function") {
    throw invalid(`reject must be a function when given ${named}`);
  }
  const details = snapshotJsonField(read(value, "details", named), "details", named);
  return Object.freeze({
    form: "closure",
    label,
    sourceToolName,
    details,
    apply: apply as (reason: string) => unknown,
    reject: reject as ((reason: string) => unknown) | undefined,
    target: value,
  });
}

/** Calls a closure action's `apply(reason)` with the pushed object as `this`. */
export function callApply(action: ClosureActionSnapshot, reason: string): unknown {
  return reflectApply(action.apply, action.target, [reason]);
}

/** Calls a closure action's `reject(reason)` with the pushed object as `this`; undefined without one. */
export function callReject(action: ClosureActionSnapshot, reason: string): unknown {
  return action.reject === undefined ? undefined : reflectApply(action.reject, action.target, [reason]);
}

function snapshotJsonField(value: unknown, field: "details" | "payload", named: string): unknown {
  if (value === undefined) return undefined;
  if (typeof value === "function" || typeof value === "symbol") {
    throw invalid(`${field} must be JSON data when given, got a ${typeof value} ${named}`);
  }
  const copy = snapshotJsonData(value, field);
  if (!copy.ok) {
    if (copy.error instanceof JsonDataError) throw invalid(`${copy.error.message} ${named}`);
    throw invalid(
      `${field} must be JSON data when given; serialising them failed (${describeError(copy.error)}) ${named}`,
    );
  }
  return copy.value;
}

/** Freezes a JSON copy all the way down (without recursion: a payload may nest deeply). */
export function deepFreeze(value: unknown): unknown {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) stack.push(child);
  }
  return value;
}

function read(value: object, field: string, named = ""): unknown {
  try {
    return (value as Record<string, unknown>)[field];
  } catch (error) {
    throw invalid(`reading ${field} threw (${describeError(error)})${named === "" ? "" : ` ${named}`}`);
  }
}

/** Whether the loader marked `value` as staged in a tool host; a read that throws is a no. */
function stagedInToolHost(value: object): boolean {
  try {
    return (value as Record<symbol, unknown>)[STAGED_IN_TOOL_HOST] === true;
  } catch {
    return false;
  }
}

function invalid(problem: string): TooldockError {
  return new TooldockError(
    "E_INVALID_PENDING_ACTION",
    `Invalid pending action: ${problem}. Push an object with a non-empty label and an async apply(reason) function (or a handler name and a JSON payload), and JSON details.`,
  );
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return "an empty string";
  return typeof value;
}
