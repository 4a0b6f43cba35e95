import { assertJsonSerializable } from "../session/execute/check-json.js";
import { describeError } from "../util/describe-error.js";
import { invalidSchema } from "./invalid-schema.js";
import type { ToolSchema } from "./tool-schema.js";
import { isTypeBoxSchema, typeboxSchema } from "./typebox-schema.js";
import { isZodSchema, isZodV3Schema, zodSchema } from "./zod-schema.js";

const cache = new WeakMap<object, ToolSchema>();

/**
 * Turns a tool's `parameters` (TypeBox or zod v4) into one {@link ToolSchema}: its JSON
 * Schema and a validator compiled on first use. Results are cached per schema object, so
 * calling it again for the same tool is free and the validator is compiled once.
 *
 * Throws a `TooldockError` with code `E_INVALID_SCHEMA` for anything else, for zod v3, for
 * types a model cannot send as JSON, when the top level is not an object, and when the JSON
 * Schema itself cannot be written as JSON (a BigInt `default`). `role` names
 * the schema in those messages: a tool's `"parameters"` (default) or its `"outputSchema"`.
 *
 * @example
 * ```ts
 * const schema = asSchema(Type.Object({ files: Type.Array(Type.String()) }));
 * schema.validate({ files: [1] });
 * // { success: false, issues: [{ path: "/files/0", message: "Expected string" }] }
 * ```
 */
export function asSchema(parameters: unknown, role: SchemaRole = "parameters"): ToolSchema {
  if (typeof parameters === "object" && parameters !== null) {
    const cached = cache.get(parameters);
    if (cached !== undefined) return cached;
  }
  const words = WORDS[role];
  const { schema, jsonPlain } = convert(parameters, words);
  assertObjectTopLevel(schema, words);
  if (!jsonPlain) assertJson(schema, words);
  cache.set(parameters as object, schema);
  return schema;
}

/** Which of a tool's schemas {@link asSchema} converts, for its messages. */
export type SchemaRole = "parameters" | "outputSchema";

/** How the messages name each schema. */
interface Words {
  /** "The parameters are" */
  subjectIs: string;
  /** "The parameters" */
  subject: string;
  /** "them" */
  it: string;
}

const WORDS: Readonly<Record<SchemaRole, Words>> = {
  parameters: { subjectIs: "The parameters are", subject: "The parameters", it: "them" },
  outputSchema: { subjectIs: "The outputSchema is", subject: "The outputSchema", it: "it" },
};

/** The schema, and whether its JSON Schema is known to be plain JSON already (no check needed). */
function convert(parameters: unknown, words: Words): { schema: ToolSchema; jsonPlain: boolean } {
  if (isTypeBoxSchema(parameters)) return typeboxSchema(parameters);
  if (isZodSchema(parameters)) return { schema: zodSchema(parameters), jsonPlain: false };
  if (isZodV3Schema(parameters)) {
    throw invalidSchema(
      `${words.subjectIs} a zod v3 schema; Tooldock takes zod v4. Import from "zod" v4 (or use the \`zod\` the host hands you as pi.zod).`,
    );
  }
  const got = parameters === null ? "null" : Array.isArray(parameters) ? "an array" : typeof parameters;
  throw invalidSchema(
    `${words.subjectIs} not a TypeBox or zod v4 schema (got ${got}). Declare ${words.it} with Type.Object({ ... }) or z.object({ ... }); a plain JSON Schema object is not accepted.`,
  );
}

/**
 * The JSON Schema goes to models and clients as JSON: one that JSON cannot carry (a BigInt
 * `default`, a `toJSON` that throws) would break every request that lists the tool.
 */
function assertJson(schema: ToolSchema, words: Words): void {
  try {
    assertJsonSerializable(schema.jsonSchema);
  } catch (error) {
    throw invalidSchema(
      `${words.subject} cannot be written as JSON Schema: ${describeError(error)}. Use JSON values only in the schema (defaults, examples, enums: no BigInt, no functions).`,
      error,
    );
  }
}

function assertObjectTopLevel(schema: ToolSchema, words: Words): void {
  if (schema.jsonSchema.type === "object") return;
  const got =
    typeof schema.jsonSchema.type === "string" ? `type "${schema.jsonSchema.type}"` : "no single type";
  throw invalidSchema(
    `${words.subject} must be an object schema at the top level (got ${got}). Wrap ${words.it}: ${
      schema.kind === "zod" ? "z.object({ ... })" : "Type.Object({ ... })"
    }.`,
  );
}
