type Schema = Record<string, unknown>;

/**
 * The size limits of OpenAI's strict mode ("Structured Outputs", Supported schemas), beside
 * its 10 levels of nesting (checked as the schema is rewritten).
 */
const LIMITS = {
  /** Object properties in all. */
  properties: 5_000,
  /** Enum values in all. */
  enumValues: 1_000,
  /** Characters of property names, definition names, enum values and const values in all. */
  characters: 120_000,
  /** Characters of one string enum's values, when it has more than {@link LIMITS.longEnum} of them. */
  longEnumCharacters: 15_000,
  longEnum: 250,
};

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const child = (path: string, name: string) => (path === "(root)" ? name : `${path}.${name}`);
const length = (value: unknown) => (typeof value === "string" ? value.length : JSON.stringify(value).length);

/**
 * Each limit of OpenAI's strict mode the schema (as it is sent) goes past, as `path: problem`:
 * more than 5,000 object properties, 1,000 enum values or 120,000 characters of names, enum
 * and const values in all, or a string enum of more than 250 values and 15,000 characters.
 */
export function openAILimitProblems(root: Schema): string[] {
  const problems: string[] = [];
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  const visit = (schema: Schema, path: string) => {
    if (Array.isArray(schema.enum)) {
      const values = schema.enum;
      const size = values.reduce((sum: number, value) => sum + length(value), 0);
      enumValues += values.length;
      characters += size;
      if (
        values.length > LIMITS.longEnum &&
        values.every((value) => typeof value === "string") &&
        size > LIMITS.longEnumCharacters
      )
        problems.push(
          `${path}: an enum of ${values.length} strings, ${size} characters (strict mode takes at most ${LIMITS.longEnumCharacters} past ${LIMITS.longEnum} values)`,
        );
    }
    if ("const" in schema) characters += length(schema.const);
    if (isSchema(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        properties += 1;
        characters += name.length;
        if (isSchema(property)) visit(property, child(path, name));
      }
    }
    if (isSchema(schema.items)) visit(schema.items, `${path}[]`);
    if (isSchema(schema.additionalProperties)) visit(schema.additionalProperties, `${path}{}`);
    for (const keyword of ["anyOf", "allOf", "oneOf", "prefixItems"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      for (const [index, branch] of branches.entries())
        if (isSchema(branch)) visit(branch, `${path}.${keyword}[${index}]`);
    }
    for (const keyword of ["$defs", "definitions"] as const) {
      const definitions = schema[keyword];
      if (!isSchema(definitions)) continue;
      for (const [name, definition] of Object.entries(definitions)) {
        characters += name.length;
        if (isSchema(definition)) visit(definition, `#/${keyword}/${name}`);
      }
    }
  };
  visit(root, "(root)");
  if (properties > LIMITS.properties)
    problems.push(
      `(root): ${properties} object properties in all (strict mode takes at most ${LIMITS.properties})`,
    );
  if (enumValues > LIMITS.enumValues)
    problems.push(
      `(root): ${enumValues} enum values in all (strict mode takes at most ${LIMITS.enumValues})`,
    );
  if (characters > LIMITS.characters)
    problems.push(
      `(root): ${characters} characters of property names, definition names, enum and const values (strict mode takes at most ${LIMITS.characters})`,
    );
  return problems;
}
