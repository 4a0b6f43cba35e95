import { Kind, type TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { attempt } from "../util/attempt.js";
import { describeError } from "../util/describe-error.js";
import { setOwnField } from "../util/set-own-field.js";
import { invalidSchema } from "./invalid-schema.js";
import { compileJsonSchema, type JsonSchemaCheck } from "./json-schema-validator.js";
import { cannotBacktrack, isRegExpSource } from "./linear-pattern.js";
import type { SchemaIssue, ToolSchema } from "./tool-schema.js";

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
 * `prepare` checks that it can be validated: a schema TypeBox's compiler is certain to compile
 * (see {@link typeboxCompiles}) is left for the first call; any other is compiled there and then.
 *
 * One walk of the schema ({@link readSchema}) copies it into its JSON Schema and notes what
 * every check here needs: a kind with no JSON form, the formats and patterns, whether every
 * node is of a plain kind, and a value JSON could refuse. A load accepts every tool's schema in
 * a process whose code is still cold, so each further walk showed in the load's time.
 * `jsonPlain`: the JSON Schema holds nothing `JSON.stringify` could refuse or run (no `bigint`,
 * no function), so it needs no check that it can be written as JSON.
 */
export function typeboxSchema(schema: TSchema): { schema: ToolSchema; jsonPlain: boolean } {
  let reading: SchemaReading;
  try {
    reading = readSchema(schema);
  } catch (error) {
    // A cycle or a throwing getter somewhere: a kind with no JSON form met before it is what
    // the author hears of first, as when that was looked for on its own.
    const nonJson = attempt(() => findNonJsonKind(schema, ""));
    if (nonJson !== undefined) throw nonJsonKindError(nonJson.kind, nonJson.path);
    throw invalidSchema(
      `The TypeBox schema cannot be read (${describeError(error)}). Build it from Type.* values, without cycles, getters that throw or nesting thousands of levels deep.`,
      error,
    );
  }
  if (reading.nonJson !== undefined) {
    const found = attempt(() => findNonJsonKind(schema, ""));
    throw nonJsonKindError(found?.kind ?? reading.nonJson, found?.path ?? "");
  }
  const { jsonSchema } = reading;
  let check: JsonSchemaCheck | undefined;
  const toolSchema: ToolSchema = {
    kind: "typebox",
    jsonSchema,
    formats: reading.formats,
    prepare() {
      if (check === undefined && !reading.plainKinds) check = compile(schema, jsonSchema, reading);
    },
    validate(value) {
      check ??= compile(schema, jsonSchema, reading);
      return check(value);
    },
  };
  return { schema: toolSchema, jsonPlain: !reading.unusualValue };
}

function nonJsonKindError(kind: string, path: string): Error {
  return invalidSchema(
    `TypeBox ${kind} (schema path ${path || "/"}) cannot be sent as JSON by a model. Use a JSON type instead (for a date, Type.String({ format: "date-time" })).`,
  );
}

/**
 * True when TypeBox's compiler is certain to compile `schema`, told without compiling it:
 * every node is of a plain kind (no reference to resolve, no registry to ask, no pattern but a
 * `String`'s valid one with nothing to backtrack over, no format) and holds what TypeBox's own
 * structural guard asks of it (the compiler runs that guard first). False means "not known": the caller compiles it to find out (a
 * `Type.Unsafe`, a `Ref`, a `Record`, a kind from `TypeRegistry`, a pattern that goes to Ajv's
 * RE2, which may refuse it).
 *
 * This is what lets a loader check every tool's schema at load (a schema nothing can
 * validate is `E_INVALID_SCHEMA` there, never at the first call) while the compile itself,
 * about 0.2–0.4 ms and 7 KB per tool, waits for the tool's first call.
 */
export function typeboxCompiles(schema: TSchema): boolean {
  return readSchema(schema).plainKinds;
}

function compile(
  schema: TSchema,
  jsonSchema: Record<string, unknown>,
  reading: SchemaReading,
): JsonSchemaCheck {
  if (reading.backtrackingPatterns) {
    return compileJsonSchema(jsonSchema, "its patterns are checked in linear time, by RE2 through Ajv");
  }
  // TypeBox checks only the formats registered in its FormatRegistry (none, unless the host
  // registers some): every call of a tool with `format: "email"` failed. ajv-formats has them.
  if (reading.formats.size > 0)
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

/** What {@link readSchema} found in one walk of a TypeBox schema. */
interface SchemaReading {
  /** The schema without symbol keys (TypeBox's `Kind`, `OptionalKind`, …): plain JSON Schema. */
  jsonSchema: Record<string, unknown>;
  /** Its string `format`s. */
  formats: Set<string>;
  /** A `pattern` that could backtrack or a `patternProperties` (both run on RE2 through Ajv). */
  backtrackingPatterns: boolean;
  /** The first kind met with no JSON form ({@link findNonJsonKind} says where). */
  nonJson: string | undefined;
  /**
   * Every node is of a kind TypeBox's compiler builds from the node alone (no reference to
   * resolve, no registry to ask, no pattern but `String`'s) and is what its guard asks
   * ({@link PLAIN_NODE_CHECKS}).
   */
  plainKinds: boolean;
  /**
   * A `bigint` or a function somewhere, or nesting {@link JSON_CHECK_DEPTH} deep: whether JSON
   * can carry it is for `JSON.stringify` to say (a stack that deep may overflow).
   */
  unusualValue: boolean;
}

/** Keys whose values are data, not schemas: a `format` or `pattern` key in them means nothing. */
const VALUE_KEYS = new Set(["default", "enum", "const", "examples"]);

/** A schema nested deeper than this is left to the compiler (not vouched for). */
const PLAIN_DEPTH = 64;

/** Nesting from which the JSON Schema is checked by `JSON.stringify` (as `copyPlainData` does). */
const JSON_CHECK_DEPTH = 100;

/** One walk of a TypeBox schema: its JSON Schema copy and what the checks need (see {@link SchemaReading}). */
function readSchema(schema: TSchema): SchemaReading {
  const reading: SchemaReading = {
    jsonSchema: {},
    formats: new Set(),
    backtrackingPatterns: false,
    nonJson: undefined,
    plainKinds: true,
    unusualValue: false,
  };
  reading.jsonSchema = copyNode(schema, reading, true, 0) as Record<string, unknown>;
  return reading;
}

/**
 * A copy of `node` without symbol keys, noting what {@link SchemaReading} lists. `inSchema` is
 * false under a {@link VALUE_KEYS} key, whose `format` or `pattern` is data.
 */
function copyNode(node: unknown, reading: SchemaReading, inSchema: boolean, depth: number): unknown {
  if (typeof node !== "object" || node === null) {
    if (typeof node === "bigint" || typeof node === "function") reading.unusualValue = true;
    return node;
  }
  if (depth > PLAIN_DEPTH) reading.plainKinds = false;
  if (depth >= JSON_CHECK_DEPTH) reading.unusualValue = true;
  const kind = (node as Record<symbol, unknown>)[Kind];
  if (
    kind !== undefined &&
    reading.nonJson === undefined &&
    typeof kind === "string" &&
    NON_JSON_KINDS.has(kind)
  )
    reading.nonJson = kind;
  if (Array.isArray(node)) {
    const length = node.length;
    const copy: unknown[] = new Array(length);
    for (let index = 0; index < length; index++)
      copy[index] = copyNode(node[index], reading, inSchema, depth + 1);
    return copy;
  }
  const record = node as Record<string | symbol, unknown>;
  if (kind !== undefined && reading.plainKinds && !plainNode(record, kind)) reading.plainKinds = false;
  if (inSchema) {
    if (typeof record.format === "string") reading.formats.add(record.format);
    if (typeof record.pattern === "string" && !cannotBacktrack(record.pattern))
      reading.backtrackingPatterns = true;
    if (typeof record.patternProperties === "object" && record.patternProperties !== null)
      reading.backtrackingPatterns = true;
  }
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    setOwnField(copy, key, copyNode(record[key], reading, inSchema && !VALUE_KEYS.has(key), depth + 1));
  }
  return copy;
}

/**
 * A node of a plain kind ({@link PLAIN_NODE_CHECKS}), with no `$id` or `$ref`, a `String` with no format and a
 * simple pattern, whose own fields are what `TypeGuard.IsSchema` asks of its kind (TypeBox's
 * compiler runs that guard first and throws when it fails). Below a node, every schema (an
 * `items`, a property, an `anyOf` entry) must be an own field holding a node with a kind: the
 * walk visits it and asks the same of it, so a walk that finds every node plain has answered
 * what `IsSchema` would, without its chain of 37 guards per node (25 µs a tool schema, the
 * largest item of accepting a tool). `typebox-compiles.test.ts` holds this to TypeBox's guard
 * and compiler on generated schemas.
 */
function plainNode(record: Record<string | symbol, unknown>, kind: unknown): boolean {
  if (typeof kind !== "string" || "$id" in record || "$ref" in record) return false;
  const check = PLAIN_NODE_CHECKS.get(kind);
  return check?.(record) === true;
}

type PlainNodeCheck = (node: Record<string | symbol, unknown>) => boolean;

/** What `TypeGuard.IsSchema` asks of each plain kind's own fields (TypeBox 0.34's `type.js`). */
const PLAIN_NODE_CHECKS = new Map<string, PlainNodeCheck>([
  ["Any", () => true],
  ["Unknown", () => true],
  ["Boolean", (node) => node.type === "boolean"],
  ["Null", (node) => node.type === "null"],
  ["Integer", (node) => node.type === "integer" && numericBounds(node)],
  ["Number", (node) => node.type === "number" && numericBounds(node)],
  [
    "String",
    (node) =>
      node.type === "string" &&
      optionalNumber(node.minLength) &&
      optionalNumber(node.maxLength) &&
      node.format === undefined &&
      (node.pattern === undefined || simplePattern(node.pattern)),
  ],
  ["Literal", (node) => LITERAL_TYPES.has(typeof node.const)],
  [
    "Never",
    (node) =>
      typeof node.not === "object" && node.not !== null && Object.getOwnPropertyNames(node.not).length === 0,
  ],
  [
    "Array",
    (node) =>
      node.type === "array" &&
      childSchema(node, "items") &&
      (node.contains === undefined || childSchema(node, "contains")) &&
      optionalNumber(node.minItems) &&
      optionalNumber(node.maxItems) &&
      optionalNumber(node.minContains) &&
      optionalNumber(node.maxContains) &&
      (node.uniqueItems === undefined || typeof node.uniqueItems === "boolean"),
  ],
  [
    "Object",
    (node) =>
      node.type === "object" &&
      plainProperties(node) &&
      // Not asked by the guard, but read by the compiler (`required.includes`).
      (node.required === undefined || Array.isArray(node.required)) &&
      (node.additionalProperties === undefined ||
        typeof node.additionalProperties === "boolean" ||
        childSchema(node, "additionalProperties")) &&
      optionalNumber(node.minProperties) &&
      optionalNumber(node.maxProperties),
  ],
  // An empty `anyOf` passes the guard, but the compiler writes `()` for it, a syntax error.
  ["Union", (node) => Array.isArray(node.anyOf) && node.anyOf.length > 0 && everyChildSchema(node.anyOf)],
]);

const LITERAL_TYPES = new Set(["string", "number", "boolean"]);

function optionalNumber(value: unknown): boolean {
  return value === undefined || typeof value === "number";
}

function numericBounds(node: Record<string, unknown>): boolean {
  return (
    optionalNumber(node.exclusiveMaximum) &&
    optionalNumber(node.exclusiveMinimum) &&
    optionalNumber(node.maximum) &&
    optionalNumber(node.minimum) &&
    optionalNumber(node.multipleOf)
  );
}

/** `owner[key]` is an own, enumerable field (so the walk visits it) holding a node with a kind. */
function childSchema(owner: object, key: string): boolean {
  return childObject(owner, key) && Kind in ((owner as Record<string, unknown>)[key] as object);
}

/** Every index of `list` (a hole is not a schema) holds a node with a kind. */
function everyChildSchema(list: unknown[]): boolean {
  for (let index = 0; index < list.length; index++) if (!childSchema(list, String(index))) return false;
  return true;
}

/** An object's `properties`: an own object whose keys TypeBox accepts, each a node with a kind. */
function plainProperties(node: Record<string, unknown>): boolean {
  if (!childObject(node, "properties")) return false;
  const properties = node.properties as Record<string, unknown>;
  for (const key of Object.keys(properties))
    if (hasControlCharacter(key) || !childSchema(properties, key)) return false;
  // A non-enumerable or symbol-keyed entry is not visited by the walk: not vouched for.
  return Object.getOwnPropertyNames(properties).length === Object.keys(properties).length;
}

function childObject(owner: object, key: string): boolean {
  if (!Object.prototype.propertyIsEnumerable.call(owner, key)) return false;
  const value = (owner as Record<string, unknown>)[key];
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A character TypeBox's guard refuses in a property name or a pattern (BEL to CR, ESC, DEL). */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 7 && code <= 13) || code === 27 || code === 127) return true;
  }
  return false;
}

function simplePattern(value: unknown): boolean {
  return (
    typeof value === "string" &&
    !hasControlCharacter(value) &&
    cannotBacktrack(value) &&
    isRegExpSource(value)
  );
}
