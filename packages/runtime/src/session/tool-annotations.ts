import type { ToolAnnotations } from "@tooldock/sdk";
import { describeError } from "../util/describe-error.js";

// Captured when this module is evaluated, so a tool module that replaces them later cannot
// change how annotations are read.
const keysOf = Object.keys;
const freeze = Object.freeze;
const isArray = Array.isArray;
const hasOwn = Object.hasOwn;

/** The code of the warning about annotation keys Tooldock does not know (they are dropped). */
export const UNKNOWN_ANNOTATION_WARNING = "W_UNKNOWN_ANNOTATION";

/** The annotations Tooldock knows (MCP's `ToolAnnotations`) and the type each must have. */
const KNOWN: Readonly<Record<keyof ToolAnnotations, "boolean" | "string">> = {
  title: "string",
  readOnlyHint: "boolean",
  destructiveHint: "boolean",
  idempotentHint: "boolean",
  openWorldHint: "boolean",
};

/** What {@link readAnnotations} made of a tool's `annotations`. */
export interface AnnotationsReading {
  /** A frozen copy of the known keys, or undefined when the tool has none. */
  annotations: Readonly<ToolAnnotations> | undefined;
  /** Why they cannot be used (`"annotations.readOnlyHint" is a string, not a boolean`). */
  problems: string[];
  /** Keys Tooldock does not know, dropped from the copy (the caller warns). */
  unknownKeys: string[];
}

/**
 * Reads a tool's `annotations` once: each own enumerable key once, into a frozen copy of the
 * known ones (`title` a string, the four hints booleans; `undefined` counts as left out).
 * Never throws: a value that is not an object, a key of the wrong type and a read that
 * throws are problems; unknown keys are listed and dropped.
 */
export function readAnnotations(value: unknown): AnnotationsReading {
  const reading: AnnotationsReading = { annotations: undefined, problems: [], unknownKeys: [] };
  if (value === undefined) return reading;
  if (typeof value !== "object" || value === null || isArraySafe(value)) {
    reading.problems.push(`"annotations" is ${kindOf(value)}, not an object`);
    return reading;
  }
  const copy: Record<string, unknown> = {};
  try {
    for (const key of keysOf(value)) {
      const field = (value as Record<string, unknown>)[key];
      if (!hasOwn(KNOWN, key)) {
        reading.unknownKeys.push(key);
        continue;
      }
      const expected = KNOWN[key as keyof ToolAnnotations];
      if (field === undefined) continue;
      if (typeof field !== expected) {
        reading.problems.push(`"annotations.${key}" is ${kindOf(field)}, not a ${expected}`);
        continue;
      }
      copy[key] = field;
    }
  } catch (error) {
    reading.problems.push(`reading "annotations" threw (${describeError(error)})`);
  }
  if (reading.problems.length === 0) reading.annotations = freeze(copy) as Readonly<ToolAnnotations>;
  return reading;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (isArraySafe(value)) return "an array";
  const kind = typeof value;
  return kind === "object" ? "an object" : `a ${kind}`;
}

function isArraySafe(value: unknown): boolean {
  try {
    return isArray(value);
  } catch {
    return false;
  }
}
