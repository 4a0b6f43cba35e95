import type { z } from "zod";
import type { $ZodType } from "zod/v4/core";
import { describeError } from "../util/describe-error.js";
import { escapePointerSegment } from "../util/json-pointer.js";
import { invalidSchema } from "./invalid-schema.js";
import { loadZodCore } from "./load-zod-core.js";
import type { SchemaIssue, ToolSchema } from "./tool-schema.js";

/** True for a zod v4 schema (classic or mini): it carries the `_zod` internals. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** True for a zod v3 schema, which this runtime does not take. */
export function isZodV3Schema(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    "_def" in value &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

/**
 * Wraps a zod v4 schema. The JSON Schema describes the input the model sends (`io: "input"`),
 * so transforms and defaults are fine; types with no JSON form (`z.date()`, `z.bigint()`, …)
 * throw `E_INVALID_SCHEMA`.
 */
export function zodSchema(schema: z.ZodType): ToolSchema {
  const core = schema as unknown as $ZodType;
  const { safeParse, toJSONSchema } = loadZodCore();
  let jsonSchema: Record<string, unknown>;
  try {
    const { $schema: _dialect, ...rest } = toJSONSchema(core, { io: "input", unrepresentable: "throw" });
    jsonSchema = rest;
  } catch (error) {
    throw invalidSchema(
      `The zod schema cannot be converted to JSON Schema: ${describeError(error)}. Use JSON types only (for a date, z.iso.datetime() instead of z.date()).`,
      error,
    );
  }
  return {
    kind: "zod",
    jsonSchema,
    validate(value) {
      const result = safeParse(core, value);
      if (result.success) return { success: true, value: result.data };
      return { success: false, issues: result.error.issues.map(toIssue) };
    },
  };
}

function toIssue(issue: { path: PropertyKey[]; message: string }): SchemaIssue {
  return { path: toPointer(issue.path), message: issue.message };
}

function toPointer(path: PropertyKey[]): string {
  return path.map((segment) => `/${escapePointerSegment(String(segment))}`).join("");
}
