import type { LoadedCustomTool } from "@tooldock/loader";
import { asSchema } from "@tooldock/runtime";
import { annotationsOf } from "../mcp/tool-definition.js";
import type { ToolEntry } from "../report/report-types.js";

/**
 * A loaded tool as the reports show it: `parameters` and `outputSchema` become JSON Schema,
 * `annotations` are the ones `tooldock mcp` lists.
 */
export function toToolEntry(loaded: LoadedCustomTool): ToolEntry {
  const { tool } = loaded;
  const entry: ToolEntry = {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    path: loaded.path,
    hidden: tool.hidden === true,
    deferrable: tool.deferrable === true,
    annotations: annotationsOf(tool),
    parameters: asSchema(tool.parameters).jsonSchema,
  };
  if (tool.outputSchema !== undefined)
    entry.outputSchema = asSchema(tool.outputSchema, "outputSchema").jsonSchema;
  return entry;
}
