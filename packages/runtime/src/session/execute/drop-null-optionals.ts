type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The arguments without each `null` given for a property that is optional in the tool's own
 * JSON Schema and whose schema provably does not accept `null`, at any depth of `properties`
 * and `items`. Models send `null` for a property they have no value for (OpenAI's strict mode
 * makes every property required; others do it unasked), and that `null` would fail
 * validation where leaving the property out passes and lets its default apply. A `null` the
 * schema accepts stays. Objects on the way to a removed property are copied, never changed.
 */
export function dropNullOptionals(schema: Schema, value: unknown): unknown {
  if (Array.isArray(value)) {
    if (!isSchema(schema.items)) return value;
    const items = schema.items;
    const copy = value.map((item) => dropNullOptionals(items, item));
    return copy.some((item, index) => item !== value[index]) ? copy : value;
  }
  if (!isSchema(value) || !isSchema(schema.properties)) return value;
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required : [];
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(value)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!isSchema(property)) continue;
    const entry = value[name];
    if (entry === null) {
      if (!required.includes(name) && rejectsNull(property)) {
        copy = copy ?? { ...value };
        delete copy[name];
      }
      continue;
    }
    const dropped = dropNullOptionals(property, entry);
    if (dropped === entry) continue;
    copy = copy ?? { ...value };
    // defineProperty: a `"__proto__"` key stays an own property.
    Object.defineProperty(copy, name, {
      value: dropped,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return copy ?? value;
}

/** Whether a schema rejects `null` by its own keywords (a `$ref` is not followed: not proven). */
function rejectsNull(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.type !== undefined && !types.includes("null")) return true;
  if ("const" in schema && schema.const !== null) return true;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return true;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.every((branch) => isSchema(branch) && rejectsNull(branch)))
      return true;
  }
  return false;
}
