import { loadFormats } from "./load-ajv.js";

/** True when `schema` has a string `format` anywhere: it is then checked by Ajv with ajv-formats. */
export function hasFormats(schema: unknown): boolean {
  return collectFormats(schema, new Set()).size > 0;
}

/**
 * The formats of `schema` that ajv-formats does not know (so nothing checks them), sorted; empty
 * for most schemas, and then ajv-formats is not even loaded.
 */
export function unknownFormats(schema: unknown): string[] {
  const used = collectFormats(schema, new Set());
  if (used.size === 0) return [];
  const known = loadFormats().fullFormats as Record<string, unknown>;
  return [...used].filter((format) => !Object.hasOwn(known, format)).sort();
}

function collectFormats(node: unknown, into: Set<string>): Set<string> {
  if (typeof node !== "object" || node === null) return into;
  if (Array.isArray(node)) {
    for (const item of node) collectFormats(item, into);
    return into;
  }
  const record = node as Record<string, unknown>;
  if (typeof record.format === "string") into.add(record.format);
  for (const key of Object.keys(record)) {
    // Values, not schemas: a `default` or an `enum` may hold an object with a "format" key.
    if (key === "default" || key === "enum" || key === "const" || key === "examples") continue;
    collectFormats(record[key], into);
  }
  return into;
}
