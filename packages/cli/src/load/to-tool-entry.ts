import type { LoadedCustomTool } from "@tooldock/loader";
import { asSchema } from "@tooldock/runtime";
import type { ToolEntry } from "../report/report-types.js";

/** A loaded tool as the reports show it; `parameters` becomes JSON Schema. */
export function toToolEntry(loaded: LoadedCustomTool): ToolEntry {
  const { tool } = loaded;
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    path: loaded.path,
    hidden: tool.hidden === true,
    deferrable: tool.deferrable === true,
    parameters: asSchema(tool.parameters).jsonSchema,
  };
}
