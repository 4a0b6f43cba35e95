/** One reason a value failed validation. `path` is a JSON Pointer (`/files/0`; `""` is the root). */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** The outcome of {@link ToolSchema.validate}: the value to pass on, or every issue found. */
export type SchemaValidation = { success: true; value: unknown } | { success: false; issues: SchemaIssue[] };

/**
 * A tool's parameter schema in the one shape the runtime works with, whatever the author
 * wrote it in.
 */
export interface ToolSchema {
  kind: "typebox" | "zod";
  /** JSON Schema (draft 2020-12 style) of the arguments the model sends; no `$schema` key. */
  jsonSchema: Record<string, unknown>;
  /** The string `format`s the validator checks (TypeBox; zod checks its own and leaves this out). */
  formats?: ReadonlySet<string>;
  /**
   * Checks arguments. TypeBox values pass through unchanged; zod returns its parsed output
   * (defaults and transforms applied). The validator is compiled on the first call, once.
   */
  validate(value: unknown): SchemaValidation;
  /**
   * Checks now that arguments can be validated (a loader checks this at load time), and throws
   * `E_INVALID_SCHEMA` when they cannot. A schema that is certain to compile is compiled on its
   * first `validate`; any other is compiled here. Optional for other implementations; calling
   * it twice is free.
   */
  prepare?(): void;
}

/** Formats an issue as the model reads it: `/files/0: Expected string` (the root shows as `/`). */
export function formatSchemaIssue(issue: SchemaIssue): string {
  return `${issue.path === "" ? "/" : issue.path}: ${issue.message}`;
}
