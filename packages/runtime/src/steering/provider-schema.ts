import { openAILimitProblems } from "./openai-limits.js";

type Schema = Record<string, unknown>;

/** The providers whose schema subsets {@link toProviderSchema} knows. */
export type SchemaProvider = "openai" | "anthropic" | "gemini";

/** A tool's parameter schema as one provider takes it. */
export interface ProviderSchema {
  /** The schema to send: a rewritten copy, or the tool's own schema when nothing changed. */
  readonly parameters: { type: "object"; [key: string]: unknown };
  /**
   * `true` when the provider reads every construct of `parameters` that shapes the
   * arguments: OpenAI and Anthropic may then get `strict: true`. Gemini has no strict flag;
   * there it says that nothing is lost.
   */
  readonly strict: boolean;
  /** Each rewrite made, as `path: change`. */
  readonly changes: readonly string[];
  /** Each construct the provider cannot take (why `strict` is `false`), as `path: problem`. */
  readonly problems: readonly string[];
}

/**
 * JSON Schema keywords OpenAI's strict mode (Structured Outputs) does not accept: the list of
 * the openai SDK's own normaliser (`toStrictJsonSchema`). `oneOf` and `allOf` are rewritten
 * where the rewrite keeps their meaning; whatever is left is a problem.
 */
export const OPENAI_STRICT_UNSUPPORTED = [
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "additionalItems",
  "allOf",
  "contains",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "else",
  "if",
  "maxContains",
  "maxProperties",
  "minContains",
  "minProperties",
  "not",
  "oneOf",
  "patternProperties",
  "prefixItems",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
  "uniqueItems",
] as const;

/** String formats each provider documents; any other format moves into the description. */
const FORMATS: Record<SchemaProvider, ReadonlySet<string>> = {
  openai: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
  anthropic: new Set([
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
  ]),
  gemini: new Set(["date-time", "date", "time"]),
};

/** Keywords Anthropic's strict tool use keeps (its SDK moves every other one into the description). */
const ANTHROPIC_KEEPS = new Set([
  "$defs",
  "definitions",
  "$ref",
  "enum",
  "const",
  "type",
  "anyOf",
  "allOf",
  "description",
  "title",
  "properties",
  "additionalProperties",
  "required",
  "format",
  "items",
  "minItems",
]);

/** Keywords of Gemini's documented JSON Schema subset (`parametersJsonSchema`); it ignores the rest. */
const GEMINI_KEEPS = new Set([
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "$schema",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
]);

/** Keywords whose problem is reported with its own message. */
const REPORTED = new Set(["oneOf", "allOf"]);
const MAX_DEPTH = 10;
const cache = new WeakMap<object, Partial<Record<SchemaProvider, ProviderSchema>>>();

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const typesOf = (schema: Schema): unknown[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);
const child = (path: string, name: string) => (path === "(root)" ? name : `${path}.${name}`);

/**
 * A tool's parameter schema rewritten into what `provider` takes, with the verdict on its
 * strict mode. Rewrites keep what the schema accepts, or widen it only where the tool's own
 * validation still checks the arguments (a constraint moved into the description, `oneOf`
 * read as `anyOf` by Anthropic and Gemini): objects are closed with
 * `additionalProperties: false`; for OpenAI, optional properties that accept `null` become
 * required and `oneOf` becomes `anyOf` when its branches exclude each other (a discriminator,
 * or different types); object `allOf` merges into one object; Gemini gets `const` as a
 * one-value `enum` and tuples as `prefixItems`. What cannot be rewritten (tuples and open
 * objects for strict modes; for OpenAI optional properties that do not accept `null`,
 * schemas without `type` and a schema past its documented size limits; recursion for
 * Anthropic, …) is a problem, and the tool goes without `strict`. The result is cached per
 * schema object.
 *
 * @example
 * ```ts
 * const { parameters, strict, problems } = toProviderSchema(tool.parameters, "openai");
 * ```
 */
export function toProviderSchema(parameters: Schema, provider: SchemaProvider): ProviderSchema {
  const cached = cache.get(parameters)?.[provider];
  if (cached !== undefined) return cached;
  const result = rewriteSchema(parameters, provider);
  cache.set(parameters, { ...cache.get(parameters), [provider]: result });
  return result;
}

/**
 * Each place a tool's parameter schema keeps OpenAI strict mode off, as `path: problem`,
 * after the rewrites of {@link toProviderSchema}; an empty list means the tool goes with
 * `strict: true`. `toOpenAIResponsesRequest` and the CLI's `W_OPENAI_STRICT` lint use it.
 *
 * @example
 * ```ts
 * openAIStrictProblems({ type: "object", properties: { a: { type: "string" } } });
 * // ["(root): optional property `a` does not accept null (strict mode requires every property)"]
 * ```
 */
export function openAIStrictProblems(root: Schema): string[] {
  return [...toProviderSchema(root, "openai").problems];
}

function rewriteSchema(original: Schema, provider: SchemaProvider): ProviderSchema {
  const root = JSON.parse(JSON.stringify(original)) as Schema;
  const changes: string[] = [];
  const problems: string[] = [];
  if (root.type !== "object") problems.push('(root): the top level must be `"type": "object"`');
  if (provider === "openai" && "anyOf" in root) problems.push("(root): the top level may not be `anyOf`");
  if (provider === "anthropic") {
    for (const name of recursiveDefinitions(root))
      problems.push(`${name}: a recursive schema has no strict form`);
  }
  const visit = (schema: Schema, path: string, depth: number) => {
    if (provider === "openai" && depth > MAX_DEPTH) {
      problems.push(`${path}: nested deeper than ${MAX_DEPTH} levels`);
      return;
    }
    const problem = (text: string) => problems.push(`${path}: ${text}`);
    const change = (text: string) => changes.push(`${path}: ${text}`);
    if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#"))
      problem("a `$ref` outside the schema");
    if (Array.isArray(schema.oneOf) && !("anyOf" in schema)) {
      if (provider !== "openai" || exclusiveBranches(schema.oneOf)) {
        schema.anyOf = schema.oneOf;
        delete schema.oneOf;
        change(
          provider === "openai"
            ? "`oneOf` sent as `anyOf` (its branches exclude each other)"
            : "`oneOf` sent as `anyOf`",
        );
      } else problem("`oneOf` whose branches may overlap (strict mode takes `anyOf` only)");
    }
    if (Array.isArray(schema.allOf)) {
      if (mergeAllOf(schema)) change("`allOf` merged into one object");
      else problem("`allOf` that does not merge into one object");
    }
    if (provider === "gemini" && "const" in schema && !("enum" in schema)) {
      schema.enum = [schema.const];
      delete schema.const;
      change("`const` sent as a one-value `enum`");
    }
    const tuple = Array.isArray(schema.items) || Array.isArray(schema.prefixItems);
    if (tuple && provider === "gemini") {
      if (Array.isArray(schema.items)) {
        schema.prefixItems = schema.items;
        delete schema.items;
        delete schema.additionalItems;
        change("tuple `items` sent as `prefixItems`");
      } else if (schema.items === false) delete schema.items;
    } else if (tuple) {
      problem("a tuple has no strict form");
      return;
    }
    if (typesOf(schema).includes("object") || isSchema(schema.properties)) {
      const open =
        (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
        "patternProperties" in schema;
      if (provider !== "gemini" && open) {
        problem("an open object (a record, its keys not known in advance) has no strict form");
        return;
      }
      if (provider !== "gemini" && schema.additionalProperties === undefined)
        schema.additionalProperties = false;
      if (provider === "openai") requireNullable(schema, change, problem);
    }
    if (provider === "openai" && typesOf(schema).includes("array") && schema.items === undefined)
      problem("an array without `items` has no strict form");
    if (typeof schema.format === "string" && !FORMATS[provider].has(schema.format)) {
      const format = schema.format;
      moveIntoDescription(schema, ["format"]);
      change(`format \`${format}\` moved into the description`);
    }
    if (provider === "openai") {
      if (path !== "(root)" && untyped(schema))
        problem("a schema without `type` (a value of any type) has no strict form");
      for (const keyword of OPENAI_STRICT_UNSUPPORTED) {
        if (keyword in schema && !REPORTED.has(keyword)) problem(`\`${keyword}\` is not supported`);
      }
      if (schema.default === null) delete schema.default;
    } else if (provider === "anthropic") {
      anthropicKeywords(schema, change, problem);
    } else {
      const moved = Object.keys(schema).filter((key) => !GEMINI_KEEPS.has(key));
      if (moved.length > 0) {
        moveIntoDescription(schema, moved);
        change(
          `${moved.map((key) => `\`${key}\``).join(", ")} moved into the description (Gemini ignores them)`,
        );
      }
    }
    if (isSchema(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties))
        if (isSchema(property)) visit(property, child(path, name), depth + 1);
    }
    if (isSchema(schema.items)) visit(schema.items, `${path}[]`, depth + 1);
    if (isSchema(schema.additionalProperties)) visit(schema.additionalProperties, `${path}{}`, depth + 1);
    for (const keyword of ["anyOf", "allOf", "prefixItems"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      for (const [index, branch] of branches.entries())
        if (isSchema(branch)) visit(branch, `${path}.${keyword}[${index}]`, depth + 1);
    }
    for (const keyword of ["$defs", "definitions"] as const) {
      const definitions = schema[keyword];
      if (!isSchema(definitions)) continue;
      for (const [name, definition] of Object.entries(definitions))
        if (isSchema(definition)) visit(definition, `#/${keyword}/${name}`, 0);
    }
  };
  visit(root, "(root)", 0);
  if (provider === "openai") problems.push(...openAILimitProblems(root));
  const unchanged = changes.length === 0 && JSON.stringify(root) === JSON.stringify(original);
  return {
    parameters: (unchanged ? original : root) as ProviderSchema["parameters"],
    strict: problems.length === 0,
    changes,
    problems,
  };
}

/**
 * OpenAI: an optional property that accepts `null` becomes required; any other is a problem.
 * One without `type` stays as it is: it is a problem of its own.
 */
function requireNullable(
  schema: Schema,
  change: (text: string) => void,
  problem: (text: string) => void,
): void {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? [...schema.required] : [];
  for (const [name, property] of Object.entries(properties)) {
    if (required.includes(name) || (isSchema(property) && untyped(property))) continue;
    if (isSchema(property) && acceptsNull(property)) {
      required.push(name);
      change(`optional property \`${name}\` made required (it accepts null, which the model sends for it)`);
    } else
      problem(`optional property \`${name}\` does not accept null (strict mode requires every property)`);
  }
  if (required.length > 0 || "required" in schema) schema.required = required;
}

/** Anthropic: literals lose `type`, unsupported constraints move into the description (as its SDK does). */
function anthropicKeywords(
  schema: Schema,
  change: (text: string) => void,
  problem: (text: string) => void,
): void {
  delete schema.$schema;
  const literal = Array.isArray(schema.enum) || "const" in schema;
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.every((value) => value === null || typeof value !== "object")
  )
    problem("an `enum` of objects or arrays has no strict form");
  if (literal) delete schema.type;
  else if (!("type" in schema) && !("anyOf" in schema) && !("allOf" in schema) && !("$ref" in schema))
    problem("a schema without `type` (any value) has no strict form");
  const moved = Object.keys(schema).filter(
    (key) =>
      !ANTHROPIC_KEEPS.has(key) || (key === "minItems" && schema.minItems !== 0 && schema.minItems !== 1),
  );
  if (moved.length === 0) return;
  moveIntoDescription(schema, moved);
  change(`${moved.map((key) => `\`${key}\``).join(", ")} moved into the description`);
}

/**
 * Moves `keys` out of `schema` into its description, as `{key: value, …}` after the text, so
 * the model still reads the constraint the provider would reject or ignore.
 */
function moveIntoDescription(schema: Schema, keys: string[]): void {
  const text = `{${keys.map((key) => `${key}: ${JSON.stringify(schema[key])}`).join(", ")}}`;
  for (const key of keys) delete schema[key];
  schema.description = typeof schema.description === "string" ? `${schema.description}\n\n${text}` : text;
}

/**
 * Whether a schema says nothing of its value's type: no `type`, union, reference or literal
 * (zod `z.unknown()`, TypeBox `Type.Any()`, `{}`). OpenAI's strict mode requires a `type` key
 * of every schema.
 */
function untyped(schema: Schema): boolean {
  return !["type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"].some((key) => key in schema);
}

/** Whether a schema accepts `null`, proven from its own keywords (a `$ref` is not followed). */
function acceptsNull(schema: Schema): boolean {
  if ("$ref" in schema || "not" in schema || "if" in schema) return false;
  if (schema.type !== undefined && !typesOf(schema).includes("null")) return false;
  if ("const" in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => isSchema(branch) && acceptsNull(branch)))
    return false;
  if (Array.isArray(schema.oneOf) && !schema.oneOf.some((branch) => isSchema(branch) && acceptsNull(branch)))
    return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((branch) => isSchema(branch) && acceptsNull(branch)))
    return false;
  return true;
}

/**
 * Whether no value can match two of `branches`: each has one primitive type of its own
 * (`integer` and `number` overlap), or they are objects that share a required property
 * whose `const` differs in each (a discriminated union).
 */
function exclusiveBranches(branches: unknown[]): boolean {
  if (!branches.every(isSchema)) return false;
  const types = branches.map((branch) => branch.type);
  const numeric = types.filter((type) => type === "integer" || type === "number").length;
  if (types.every((type) => typeof type === "string") && new Set(types).size === types.length && numeric < 2)
    return true;
  const [first] = branches;
  const candidates = isSchema(first?.properties) ? Object.keys(first.properties) : [];
  return candidates.some((name) => {
    const values = branches.map((branch) => {
      const property = isSchema(branch.properties) ? branch.properties[name] : undefined;
      const required = Array.isArray(branch.required) && branch.required.includes(name);
      if (!required || !isSchema(property)) return undefined;
      if ("const" in property) return JSON.stringify(property.const);
      return Array.isArray(property.enum) && property.enum.length === 1
        ? JSON.stringify(property.enum[0])
        : undefined;
    });
    return values.every((value) => value !== undefined) && new Set(values).size === values.length;
  });
}

const MERGEABLE = new Set(["type", "properties", "required", "description", "title"]);

/**
 * Merges an `allOf` of plain objects (no `additionalProperties`, no shared property) into
 * the schema itself, which then accepts the same values; `false` when that is not possible.
 */
function mergeAllOf(schema: Schema): boolean {
  const branches = schema.allOf as unknown[];
  const own = Object.keys(schema).filter((key) => key !== "allOf");
  if (!own.every((key) => MERGEABLE.has(key) || key === "$schema" || key === "$defs")) return false;
  const plain = (value: unknown): value is Schema =>
    isSchema(value) &&
    Object.keys(value).every((key) => MERGEABLE.has(key)) &&
    (value.type === undefined || value.type === "object") &&
    (value.properties === undefined || isSchema(value.properties));
  if (!branches.every(plain) || (schema.type !== undefined && schema.type !== "object")) return false;
  const properties: Schema = {};
  const required = new Set<unknown>();
  for (const object of [schema, ...branches.filter(isSchema)]) {
    for (const [name, property] of Object.entries((object.properties as Schema | undefined) ?? {})) {
      if (name in properties) return false;
      properties[name] = property;
    }
    for (const name of Array.isArray(object.required) ? object.required : []) required.add(name);
  }
  delete schema.allOf;
  schema.type = "object";
  schema.properties = properties;
  if (required.size > 0) schema.required = [...required];
  return true;
}

/** The definitions (and `(root)`) that reach themselves through `$ref`: recursion. */
function recursiveDefinitions(root: Schema): string[] {
  const definitions = new Map<string, Schema>([["#", root]]);
  for (const keyword of ["$defs", "definitions"] as const) {
    const map = root[keyword];
    if (isSchema(map))
      for (const [name, definition] of Object.entries(map))
        if (isSchema(definition)) definitions.set(`#/${keyword}/${name}`, definition);
  }
  const refsOf = (schema: unknown, found: Set<string>, top: boolean): Set<string> => {
    if (Array.isArray(schema)) for (const item of schema) refsOf(item, found, false);
    else if (isSchema(schema)) {
      if (typeof schema.$ref === "string" && definitions.has(schema.$ref)) found.add(schema.$ref);
      for (const [key, value] of Object.entries(schema))
        if (!(top && (key === "$defs" || key === "definitions"))) refsOf(value, found, false);
    }
    return found;
  };
  const edges = new Map([...definitions].map(([name, schema]) => [name, refsOf(schema, new Set(), true)]));
  const reaches = (from: string, target: string, seen: Set<string>): boolean => {
    for (const next of edges.get(from) ?? []) {
      if (next === target) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      if (reaches(next, target, seen)) return true;
    }
    return false;
  };
  return [...definitions.keys()]
    .filter((name) => reaches(name, name, new Set()))
    .map((name) => (name === "#" ? "(root)" : name));
}
