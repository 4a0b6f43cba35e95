import { enumValues, type JsonSchema, objectProperties, schemaType } from "./form-model.js";

/** Keywords shown as constraints beside a parameter. */
const CONSTRAINTS = [
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "uniqueItems",
  "default",
] as const;

/** A tool's parameters (or output schema) as a readable tree: name, type, required, description, constraints. */
export function SchemaView(props: { schema: JsonSchema; empty?: string }) {
  const properties = objectProperties(props.schema);
  if (properties.length === 0) return <p class="muted">{props.empty ?? "No parameters."}</p>;
  return (
    <ul class="schema-tree">
      {properties.map((property) => (
        <SchemaNode
          key={property.name}
          name={property.name}
          schema={property.schema}
          required={property.required}
        />
      ))}
    </ul>
  );
}

function SchemaNode(props: { name: string; schema: JsonSchema; required: boolean }) {
  const { schema } = props;
  const choices = enumValues(schema);
  const type = choices !== undefined ? "enum" : typeLabel(schema);
  const constraints = CONSTRAINTS.filter((key) => key in schema).map(
    (key) => `${key}: ${JSON.stringify(schema[key])}`,
  );
  const children = schemaType(schema) === "object" ? objectProperties(schema) : [];
  const items =
    schemaType(schema) === "array" && typeof schema.items === "object"
      ? (schema.items as JsonSchema)
      : undefined;
  const itemChildren = items !== undefined && schemaType(items) === "object" ? objectProperties(items) : [];
  return (
    <li>
      <code class="param-name">{props.name}</code> <span class="param-type">{type}</span>{" "}
      {props.required ? <span class="badge">required</span> : <span class="muted">optional</span>}
      {choices !== undefined && (
        <span class="muted"> one of {choices.map((value) => JSON.stringify(value)).join(", ")}</span>
      )}
      {typeof schema.description === "string" && <div class="param-description">{schema.description}</div>}
      {constraints.length > 0 && <div class="muted">{constraints.join(" · ")}</div>}
      {[...children, ...itemChildren].length > 0 && (
        <ul class="schema-tree">
          {[...children, ...itemChildren].map((child) => (
            <SchemaNode key={child.name} name={child.name} schema={child.schema} required={child.required} />
          ))}
        </ul>
      )}
    </li>
  );
}

function typeLabel(schema: JsonSchema): string {
  const type = schemaType(schema);
  if (type === "array") {
    const items =
      typeof schema.items === "object" && schema.items !== null ? (schema.items as JsonSchema) : {};
    return `array of ${enumValues(items) !== undefined ? "enum" : (schemaType(items) ?? "any")}`;
  }
  if (type !== undefined) return type;
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) return "one of several shapes";
  return "any JSON";
}
