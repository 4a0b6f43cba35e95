import { Kind, type TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { describeError } from "../util/describe-error.js";
import { setOwnField } from "../util/set-own-field.js";
import { invalidSchema } from "./invalid-schema.js";
import { compileJsonSchema, type JsonSchemaCheck } from "./json-schema-validator.js";
import { cannotBacktrack } from "./linear-pattern.js";
import type { SchemaIssue, ToolSchema } from "./tool-schema.js";
import { typeboxCompiles } from "./typebox-compiles.js";

/** TypeBox kinds that have no JSON form: a model could never send a value of them. */
const NON_JSON_KINDS = new Set([
  "AsyncIterator",
  "BigInt",
  "Constructor",
  "Date",
  "Function",
  "Iterator",
  "Promise",
  "RegExp",
  "Symbol",
  "Uint8Array",
  "Undefined",
  "Void",
]);

/** True for a TypeBox schema from any copy of TypeBox (the `Kind` symbol is registered). */
export function isTypeBoxSchema(value: unknown): value is TSchema {
  return typeof value === "object" && value !== null && Kind in value;
}

/**
 * Wraps a TypeBox schema; `TypeCompiler` compiles it on the first `validate`. What TypeBox's
 * compiler cannot compile (`Type.Unsafe`, e.g. pi's `StringEnum`, or a kind not in
 * `TypeRegistry`) is validated by its JSON Schema with Ajv instead, compiled once, and so is a
 * schema with a `patternProperties` (a `Record`) or a `pattern` that could backtrack (a
 * `TemplateLiteral` has one): TypeBox's compiler runs patterns on V8's backtracking `RegExp`,
 * Ajv here on RE2, in linear time; and so is one with a string `format`, which ajv-formats checks.
 * `prepare` checks that it can be validated: a schema {@link typeboxCompiles} vouches for is
 * left for the first call; any other is compiled there and then.
 */
export function typeboxSchema(schema: TSchema): ToolSchema {
  const nonJson = findNonJsonKind(schema, "");
  if (nonJson !== undefined) {
    throw invalidSchema(
      `TypeBox ${nonJson.kind} (schema path ${nonJson.path || "/"}) cannot be sent as JSON by a model. Use a JSON type instead (for a date, Type.String({ format: "date-time" })).`,
    );
  }
  const features: SchemaFeatures = { formats: new Set(), backtrackingPatterns: false };
  const jsonSchema = stripSymbols(schema, features) as Record<string, unknown>;
  let check: JsonSchemaCheck | undefined;
  return {
    kind: "typebox",
    jsonSchema,
    formats: features.formats,
    prepare() {
      if (check === undefined && !typeboxCompiles(schema)) check = compile(schema, jsonSchema, features);
    },
    validate(value) {
      check ??= compile(schema, jsonSchema, features);
      return check(value);
    },
  };
}

function compile(
  schema: TSchema,
  jsonSchema: Record<string, unknown>,
  features: SchemaFeatures,
): JsonSchemaCheck {
  if (features.backtrackingPatterns) {
    return compileJsonSchema(jsonSchema, "its patterns are checked in linear time, by RE2 through Ajv");
  }
  // TypeBox checks only the formats registered in its FormatRegistry (none, unless the host
  // registers some): every call of a tool with `format: "email"` failed. ajv-formats has them.
  if (features.formats.size > 0)
    return compileJsonSchema(jsonSchema, "its string formats are checked by ajv-formats");
  let typeCheck: TypeCheck<TSchema>;
  try {
    typeCheck = TypeCompiler.Compile(schema);
  } catch (error) {
    return compileJsonSchema(jsonSchema, `TypeBox's compiler cannot compile it: ${describeError(error)}`);
  }
  return (value) => {
    if (typeCheck.Check(value)) return { success: true, value };
    return { success: false, issues: collectIssues(typeCheck, value) };
  };
}

/**
 * Every distinct issue. A missing property reports only that it is missing, not also that
 * `undefined` has the wrong type.
 */
function collectIssues(check: TypeCheck<TSchema>, value: unknown): SchemaIssue[] {
  const errors = [...check.Errors(value)];
  const missing = new Set(
    errors.filter((error) => error.type === ValueErrorType.ObjectRequiredProperty).map((error) => error.path),
  );
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const error of errors) {
    if (missing.has(error.path) && error.type !== ValueErrorType.ObjectRequiredProperty) continue;
    const key = `${error.path}\u0000${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path: error.path, message: error.message });
  }
  return issues;
}

function findNonJsonKind(node: unknown, path: string): { kind: string; path: string } | undefined {
  const found = nonJsonKindAt(node);
  if (found === undefined) return undefined;
  let at = path;
  for (let index = found.keys.length - 1; index >= 0; index--) at += `/${found.keys[index]}`;
  return { kind: found.kind, path: at };
}

/**
 * The first non-JSON kind under `node` and the keys that lead to it, innermost first. Walks
 * with `Object.keys` and builds the path only for a find: a load checks every tool's schema,
 * and a path string per node (and a pair per key) was most of the garbage of that check.
 */
function nonJsonKindAt(node: unknown): { kind: string; keys: string[] } | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const kind = (node as Record<symbol, unknown>)[Kind];
  if (typeof kind === "string" && NON_JSON_KINDS.has(kind)) return { kind, keys: [] };
  const keys = Object.keys(node);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const found = nonJsonKindAt((node as Record<string, unknown>)[key]);
    if (found === undefined) continue;
    found.keys.push(key);
    return found;
  }
  return undefined;
}

/**
 * What decides which validator a schema needs, noted while {@link stripSymbols} copies it: its
 * string `format`s, and whether it has a `pattern` that could backtrack or a
 * `patternProperties` (both run on RE2 through Ajv).
 */
interface SchemaFeatures {
  formats: Set<string>;
  backtrackingPatterns: boolean;
}

/** Keys whose values are data, not schemas: a `format` or `pattern` key in them means nothing. */
const VALUE_KEYS = new Set(["default", "enum", "const", "examples"]);

/**
 * A deep copy without symbol keys (TypeBox's `Kind`, `OptionalKind`, …): plain JSON Schema.
 * With `features`, also notes what decides the validator, in the same walk.
 */
export function stripSymbols(node: unknown, features?: SchemaFeatures): unknown {
  if (Array.isArray(node)) return node.map((item) => stripSymbols(item, features));
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, unknown>;
  if (features !== undefined) {
    if (typeof record.format === "string") features.formats.add(record.format);
    if (typeof record.pattern === "string" && !cannotBacktrack(record.pattern))
      features.backtrackingPatterns = true;
    if (typeof record.patternProperties === "object" && record.patternProperties !== null)
      features.backtrackingPatterns = true;
  }
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    setOwnField(copy, key, stripSymbols(record[key], VALUE_KEYS.has(key) ? undefined : features));
  }
  return copy;
}
