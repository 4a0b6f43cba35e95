import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { asSchema, RESOLVE_TOOL_NAME } from "@tooldock/runtime";
import type { CustomTool } from "@tooldock/sdk";

/** An MCP tool input schema: JSON Schema whose top level is an object. */
type InputSchema = Tool["inputSchema"];

const inputSchemas = new WeakMap<CustomTool, InputSchema>();

/**
 * Turns a Tooldock tool into the definition `tools/list` returns: name, title (the label),
 * description, JSON Schema input and annotations.
 *
 * Annotations only claim what Tooldock knows: a deferrable tool and `resolve` are not
 * read-only (the first stages changes, the second applies them, so `resolve` is also
 * destructive); other tools carry just their title, which leaves the MCP defaults.
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

function annotationsOf(tool: CustomTool): ToolAnnotations {
  if (tool.name === RESOLVE_TOOL_NAME) {
    return { title: tool.label, readOnlyHint: false, destructiveHint: true, idempotentHint: false };
  }
  if (tool.deferrable) return { title: tool.label, readOnlyHint: false };
  return { title: tool.label };
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
