import { TooldockError } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";
import { quoted } from "../util/quoted.js";
import { snapshotJson } from "./json-snapshot.js";

// Captured when this module is evaluated: a tool module that replaces `Reflect.apply` (or a
// callback with an own `call` property) cannot change how callbacks are called.
const reflectApply = Reflect.apply;

/**
 * A pending action as the store keeps it: every field read exactly once, at push, into
 * values that cannot change afterwards. `apply` and `reject` are the functions read then;
 * they are called with the pushed object as `this`, so actions that are class instances
 * keep their methods and state.
 */
export interface PendingActionSnapshot {
  readonly label: string;
  /** Undefined when the action named none; the store fills in its default. */
  readonly sourceToolName: string | undefined;
  /** A JSON copy of `details`; undefined when there were none. */
  readonly details: unknown;
  readonly apply: (reason: string) => unknown;
  readonly reject: ((reason: string) => unknown) | undefined;
  /** The pushed object, `this` of `apply` and `reject`. */
  readonly target: object;
}

/**
 * Reads a pushed value once, field by field (`label`, `apply`, `reject`, `sourceToolName`,
 * `details`: one read each, so a getter or a proxy trap runs once), and checks what it read.
 * Throws a `TooldockError` `E_INVALID_PENDING_ACTION` unless the label is a non-empty string,
 * `apply` a function, `reject` a function or absent, `sourceToolName` a string or absent, and
 * `details` absent or serialisable to JSON (a cycle, a `BigInt`, a throwing getter or
 * `toJSON`, a function or a symbol are refused). A read that throws is refused the same way.
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
  const apply = read(value, "apply", named);
  if (typeof apply !== "function") throw invalid(`apply must be a function ${named}`);
  const reject = read(value, "reject", named);
  if (reject !== undefined && typeof reject !== "function") {
    throw invalid(`reject must be a function when given ${named}`);
  }
  const sourceToolName = read(value, "sourceToolName", named);
  if (sourceToolName !== undefined && typeof sourceToolName !== "string") {
    throw invalid(`sourceToolName must be a string when given ${named}`);
  }
  const details = snapshotDetails(read(value, "details", named), named);
  return Object.freeze({
    label,
    sourceToolName,
    details,
    apply: apply as (reason: string) => unknown,
    reject: reject as ((reason: string) => unknown) | undefined,
    target: value,
  });
}

/** Calls the action's `apply(reason)` with the pushed object as `this`. */
export function callApply(action: PendingActionSnapshot, reason: string): unknown {
  return reflectApply(action.apply, action.target, [reason]);
}

/** Calls the action's `reject(reason)` with the pushed object as `this`; undefined without one. */
export function callReject(action: PendingActionSnapshot, reason: string): unknown {
  return action.reject === undefined ? undefined : reflectApply(action.reject, action.target, [reason]);
}

function snapshotDetails(details: unknown, named: string): unknown {
  if (details === undefined) return undefined;
  if (typeof details === "function" || typeof details === "symbol") {
    throw invalid(`details must be JSON data when given, got a ${typeof details} ${named}`);
  }
  const copy = snapshotJson(details);
  if (!copy.ok) {
    throw invalid(
      `details must be JSON data when given; serialising them failed (${describeError(copy.error)}) ${named}`,
    );
  }
  return copy.value;
}

function read(value: object, field: string, named = ""): unknown {
  try {
    return (value as Record<string, unknown>)[field];
  } catch (error) {
    throw invalid(`reading ${field} threw (${describeError(error)})${named === "" ? "" : ` ${named}`}`);
  }
}

function invalid(problem: string): TooldockError {
  return new TooldockError(
    "E_INVALID_PENDING_ACTION",
    `Invalid pending action: ${problem}. Push an object with a non-empty label, an async apply(reason) function and JSON details.`,
  );
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return "an empty string";
  return typeof value;
}
