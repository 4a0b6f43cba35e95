import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { asSchema, RESOLVE_TOOL_NAME } from "@tooldock/runtime";
import type { CustomTool } from "@tooldock/sdk";

/** An MCP tool input schema: JSON Schema whose top level is an object. */
type InputSchema = Tool["inputSchema"];

const inputSchemas = new WeakMap<CustomTool, InputSchema>();

/**
 * Turns a Tooldock tool into the definition `tools/list` returns: name, title (the label),
 * description, JSON Schema input and annotations ({@link annotationsOf}).
 */
export function toMcpTool(tool: CustomTool): Tool {
  return {
    name: tool.name,
    title: tool.label,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
    annotations: annotationsOf(tool),
  };
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
