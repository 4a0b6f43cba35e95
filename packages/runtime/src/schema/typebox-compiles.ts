import { Kind, type TSchema, TypeGuard } from "@sinclair/typebox";
import { cannotBacktrack, isRegExpSource } from "./linear-pattern.js";

/**
 * Kinds whose compiled check TypeBox builds from the node alone, once `TypeGuard.IsSchema`
 * accepted it: no reference to resolve, no registry to ask, no pattern but `String`'s.
 */
const PLAIN_KINDS = new Set([
  "Any",
  "Array",
  "Boolean",
  "Integer",
  "Literal",
  "Never",
  "Null",
  "Number",
  "Object",
  "String",
  "Union",
  "Unknown",
]);

/**
 * True when TypeBox's compiler is certain to compile `schema`, told without compiling it:
 * TypeBox's own structural guard accepts it, every node is of a plain kind, and every
 * `pattern` is a valid regular expression with nothing to backtrack over. False means "not
 * known": the caller compiles it now to find out (a `Type.Unsafe`, a `Ref`, a `Record`, a
 * kind from `TypeRegistry`, a pattern that goes to Ajv's RE2, which may refuse it).
 *
 * This is what lets a loader check every tool's schema at load (a schema nothing can
 * validate is `E_INVALID_SCHEMA` there, never at the first call) while the compile itself,
 * about 0.2–0.4 ms and 7 KB per tool, waits for the tool's first call.
 */
export function typeboxCompiles(schema: TSchema): boolean {
  return TypeGuard.IsSchema(schema) && plainNodes(schema, 0);
}

function plainNodes(node: unknown, depth: number): boolean {
  if (typeof node !== "object" || node === null) return true;
  // A schema this deep is rare enough to leave to the compiler.
  if (depth > 64) return false;
  if (Array.isArray(node)) return node.every((item) => plainNodes(item, depth + 1));
  const record = node as Record<string | symbol, unknown>;
  const kind = record[Kind];
  if (kind !== undefined) {
    if (typeof kind !== "string" || !PLAIN_KINDS.has(kind)) return false;
    if ("$id" in record || "$ref" in record) return false;
    if (kind === "String" && record.pattern !== undefined && !simplePattern(record.pattern)) return false;
    if (kind === "String" && record.format !== undefined) return false;
  }
  for (const key of Object.keys(record)) {
    if (!plainNodes(record[key], depth + 1)) return false;
  }
  return true;
}

function simplePattern(value: unknown): boolean {
  return typeof value === "string" && cannotBacktrack(value) && isRegExpSource(value);
}
