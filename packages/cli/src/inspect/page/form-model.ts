// The inspect page's form, as data: what a JSON Schema asks for, a value to start from, and
// reading and writing a value at a path. No DOM here, so it runs (and is tested) under Node too.

/** A JSON Schema node, as the page reads it (only the keywords the form uses). */
export type JsonSchema = Record<string, unknown>;

/** A step into a value: an object key or an array index. */
export type PathStep = string | number;

/** The kinds of field the form can draw; anything else is edited as JSON. */
export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "array" | "object" | "json";

/** The kind of field for a schema node. */
export function fieldKind(schema: JsonSchema): FieldKind {
  if (enumValues(schema) !== undefined) return "enum";
  const type = schemaType(schema);
  switch (type) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
    case "array":
      return type;
    case "object":
      return isRecord(schema.properties) ? "object" : "json";
    default:
      return "json";
  }
}

/** The one non-null `type` of a node (`["string", "null"]` is `string`), else `undefined`. */
export function schemaType(schema: JsonSchema): string | undefined {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const types = type.filter((entry) => entry !== "null");
    return types.length === 1 && typeof types[0] === "string" ? types[0] : undefined;
  }
  if (isRecord(schema.properties)) return "object";
  return undefined;
}

/**
 * The values a node allows when it is a choice: `enum`, one `const`, or an `anyOf`/`oneOf` of
 * `const`s (how TypeBox writes `Type.Union([Type.Literal("a"), …])`). `undefined` otherwise.
 */
export function enumValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ("const" in schema) return [schema.const];
  const options = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (options === undefined || options.length === 0) return undefined;
  const values: unknown[] = [];
  for (const option of options) {
    if (!isRecord(option)) return undefined;
    if ("const" in option) values.push(option.const);
    else if (Array.isArray(option.enum)) values.push(...option.enum);
    else return undefined;
  }
  return values;
}

/** The properties of an object node, in their order, each with whether it is required. */
export function objectProperties(
  schema: JsonSchema,
): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [],
  );
  return Object.entries(properties).map(([name, child]) => ({
    name,
    schema: isRecord(child) ? child : {},
    required: required.has(name),
  }));
}

/** The item schema of an array node (`{}` when it has none). */
export function itemSchema(schema: JsonSchema): JsonSchema {
  return isRecord(schema.items) ? schema.items : {};
}

/**
 * A value to start the form from: the schema's `default` where it has one, else the smallest
 * value of its kind. Objects get their required properties only; arrays start empty (or with
 * `minItems` items).
 */
export function initialValue(schema: JsonSchema): unknown {
  if ("default" in schema) return structuredClone(schema.default);
  const kind = fieldKind(schema);
  switch (kind) {
    case "enum":
      return enumValues(schema)?.[0];
    case "string":
      return "";
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "array": {
      const count = typeof schema.minItems === "number" ? Math.min(schema.minItems, 20) : 0;
      return Array.from({ length: count }, () => initialValue(itemSchema(schema)));
    }
    case "object": {
      const value: Record<string, unknown> = {};
      for (const property of objectProperties(schema)) {
        if (property.required) value[property.name] = initialValue(property.schema);
      }
      return value;
    }
    default:
      return schemaType(schema) === "object" ? {} : null;
  }
}

/** The value at `path`, or `undefined` when a step is missing. */
export function valueAt(value: unknown, path: readonly PathStep[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof step === "number" ? !Array.isArray(current) : !isRecord(current)) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/**
 * A copy of `value` with `next` at `path` (missing objects and arrays on the way are created);
 * `undefined` removes an object key, so an optional field left empty is left out.
 */
export function withValueAt(value: unknown, path: readonly PathStep[], next: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return next;
  if (typeof step === "number") {
    const array = Array.isArray(value) ? [...value] : [];
    array[step] = withValueAt(array[step], rest, next);
    return array;
  }
  const record = isRecord(value) ? { ...value } : {};
  const child = withValueAt(record[step], rest, next);
  if (child === undefined) delete record[step];
  else record[step] = child;
  return record;
}

/** A copy of the array at `path` without item `index`. */
export function withoutItem(value: unknown, path: readonly PathStep[], index: number): unknown {
  const array = valueAt(value, path);
  if (!Array.isArray(array)) return value;
  return withValueAt(
    value,
    path,
    array.filter((_, position) => position !== index),
  );
}

/** The JSON Pointer of a path (`["files", 0]` → `/files/0`; `[]` → `""`), as the validator reports issues. */
export function pointerOf(path: readonly PathStep[]): string {
  return path.map((step) => `/${String(step).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Whether `value` is a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Unified diffs an action's details carry: `files[].diff` (ast_edit: one per file) or one `diff`. */
export function detailDiffs(details: unknown): Array<{ path?: string; replacements?: number; diff: string }> {
  if (!isRecord(details)) return [];
  const diffs: Array<{ path?: string; replacements?: number; diff: string }> = [];
  if (typeof details.diff === "string") diffs.push({ diff: details.diff });
  if (Array.isArray(details.files)) {
    for (const file of details.files) {
      if (!isRecord(file) || typeof file.diff !== "string") continue;
      diffs.push({
        diff: file.diff,
        ...(typeof file.path === "string" ? { path: file.path } : {}),
        ...(typeof file.replacements === "number" ? { replacements: file.replacements } : {}),
      });
    }
  }
  return diffs;
}

/** The kind of one line of a unified diff, for colouring. */
export function diffLineKind(line: string): "add" | "remove" | "hunk" | "meta" | "context" {
  if (
    line.startsWith("+++") ||
    line.startsWith("---") ||
    line.startsWith("diff ") ||
    line.startsWith("Index:")
  )
    return "meta";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "remove";
  return "context";
}
