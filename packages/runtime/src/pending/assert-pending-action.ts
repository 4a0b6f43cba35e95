import { type CustomToolPendingAction, TooldockError } from "@tooldock/sdk";

/**
 * Throws a `TooldockError` (`E_INVALID_PENDING_ACTION`) unless `value` is a usable pending
 * action: a non-empty `label`, an `apply` function, and, when present, a `reject` function
 * and a string `sourceToolName`.
 */
export function assertPendingAction(value: unknown): asserts value is CustomToolPendingAction {
  const problem = findProblem(value);
  if (problem !== undefined) {
    throw new TooldockError(
      "E_INVALID_PENDING_ACTION",
      `Invalid pending action: ${problem}. Push an object with a non-empty label and an async apply(reason) function.`,
    );
  }
}

function findProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return `expected an object, got ${describeType(value)}`;
  const action = value as Record<string, unknown>;
  if (typeof action.label !== "string" || action.label.trim() === "")
    return "label must be a non-empty string";
  if (typeof action.apply !== "function") return `apply must be a function (label "${action.label}")`;
  if (action.reject !== undefined && typeof action.reject !== "function") {
    return `reject must be a function when given (label "${action.label}")`;
  }
  if (action.sourceToolName !== undefined && typeof action.sourceToolName !== "string") {
    return `sourceToolName must be a string when given (label "${action.label}")`;
  }
  return undefined;
}

function describeType(value: unknown): string {
  return value === null ? "null" : typeof value;
}
