import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { asSchema, RESOLVE_TOOL_NAME } from "@tooldock/runtime";
import type { CustomTool } from "@tooldock/sdk";

/** An MCP tool input schema: JSON Schema whose top level is an object. */
type InputSchema = Tool["inputSchema"];

/** An MCP tool output schema: JSON Schema whose top level is an object. */
type OutputSchema = NonNullable<Tool["outputSchema"]>;

const inputSchemas = new WeakMap<CustomTool, InputSchema>();
const outputSchemas = new WeakMap<CustomTool, OutputSchema>();

/**
 * Turns a Tooldock tool into the definition `tools/list` returns: name, title (the label),
 * description, JSON Schema input, the JSON Schema of its `structuredContent` when it declares
 * an `outputSchema`, and annotations ({@link annotationsOf}).
 */
export function toMcpTool(tool: CustomTool): Tool {
  const definition: Tool = {
    name: tool.name,
    title: tool.label,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
  };
  if (tool.outputSchema !== undefined) definition.outputSchema = outputSchemaOf(tool);
  definition.annotations = annotationsOf(tool);
  return definition;
}

/** What `resolve` is advertised as: it applies staged changes (or discards them). */
const RESOLVE_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
};

/**
 * A deferrable tool only stages a preview: its call changes nothing by itself (the change is
 * made by `resolve`, which is advertised as destructive), so a client may run it without
 * asking. A deferrable tool that also changes things directly says so with
 * `annotations: { readOnlyHint: false, … }`.
 */
const DEFERRABLE_ANNOTATIONS: ToolAnnotations = { readOnlyHint: true };

/**
 * The annotations a tool is listed with: `title` (default its label), then Tooldock's defaults
 * (`resolve`: not read-only, destructive, not idempotent; a deferrable tool: read-only; other
 * tools none, which leaves MCP's defaults), then what the author declared, which wins.
 */
export function annotationsOf(tool: CustomTool): ToolAnnotations {
  const defaults =
    tool.name === RESOLVE_TOOL_NAME ? RESOLVE_ANNOTATIONS : tool.deferrable ? DEFERRABLE_ANNOTATIONS : {};
  return { title: tool.label, ...defaults, ...tool.annotations };
}

/**
 * The JSON Schema of the tool's `structuredContent`, computed once per tool. Its top level is
 * an object: `validateTool` refused any other when the tool was loaded or registered.
 */
function outputSchemaOf(tool: CustomTool): OutputSchema {
  const cached = outputSchemas.get(tool);
  if (cached) return cached;
  const schema = asSchema(tool.outputSchema, "outputSchema").jsonSchema as OutputSchema;
  outputSchemas.set(tool, schema);
  return schema;
}

/** The tool's JSON Schema, computed once per tool. */
function inputSchemaOf(tool: CustomTool): InputSchema {
  const cached = inputSchemas.get(tool);
  if (cached) return cached;
  const jsonSchema = asSchema(tool.parameters).jsonSchema;
  const schema = (
    jsonSchema.type === "object" ? jsonSchema : { ...jsonSchema, type: "object" }
  ) as InputSchema;
  inputSchemas.set(tool, schema);
  return schema;
}
