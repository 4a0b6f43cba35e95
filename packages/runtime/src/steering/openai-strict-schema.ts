type Schema = Record<string, unknown>;

/** JSON Schema keywords OpenAI's strict mode (Structured Outputs) does not accept. */
export const OPENAI_STRICT_UNSUPPORTED = [
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
] as const;

const MAX_DEPTH = 10;
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Each place a tool's parameter schema breaks OpenAI strict mode, as `path: problem`; an
 * empty list means the schema qualifies for `strict: true`. `toOpenAIResponsesRequest` and
 * the CLI's `W_OPENAI_STRICT` lint use the same check.
 *
 * @example
 * ```ts
 * openAIStrictProblems({ type: "object", properties: { a: { type: "string" } } });
 * // ["(root): needs `additionalProperties: false`", "(root): every property must be required (optional: a)"]
 * ```
 */
export function openAIStrictProblems(root: Schema): string[] {
  const problems: string[] = [];
  if (root.type !== "object") problems.push('(root): the top level must be `"type": "object"`');
  if ("anyOf" in root) problems.push("(root): the top level may not be `anyOf`");
  const visit = (schema: Schema, path: string, depth: number) => {
    if (depth > MAX_DEPTH) {
      problems.push(`${path}: nested deeper than ${MAX_DEPTH} levels`);
      return;
    }
    for (const keyword of OPENAI_STRICT_UNSUPPORTED) {
      if (keyword in schema) problems.push(`${path}: \`${keyword}\` is not supported`);
    }
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes("object") || isSchema(schema.properties)) {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      if (schema.additionalProperties !== false)
        problems.push(`${path}: needs \`additionalProperties: false\``);
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      const optional = Object.keys(properties).filter((name) => !required.has(name));
      if (optional.length > 0)
        problems.push(`${path}: every property must be required (optional: ${optional.join(", ")})`);
      for (const [name, child] of Object.entries(properties)) {
        if (isSchema(child)) visit(child, `${path === "(root)" ? "" : `${path}.`}${name}`, depth + 1);
      }
    }
    if (isSchema(schema.items)) visit(schema.items, `${path}[]`, depth + 1);
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      for (const [index, branch] of branches.entries()) {
        if (isSchema(branch)) visit(branch, `${path}.${keyword}[${index}]`, depth + 1);
      }
    }
    for (const keyword of ["$defs", "definitions"] as const) {
      const definitions = schema[keyword];
      if (isSchema(definitions)) {
        for (const [name, child] of Object.entries(definitions))
          if (isSchema(child)) visit(child, `#/${keyword}/${name}`, 0);
      }
    }
  };
  visit(root, "(root)", 0);
  return problems;
}
