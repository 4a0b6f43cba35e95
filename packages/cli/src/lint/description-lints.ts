import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDiagnostic } from "./lint-diagnostic.js";

const blank = (value: unknown) => typeof value !== "string" || value.trim() === "";

/**
 * The model chooses tools and fills arguments from descriptions alone: the tool and each
 * top-level parameter need one (`W_MISSING_DESCRIPTION`, `W_MISSING_PARAMETER_DESCRIPTION`).
 */
export function lintDescriptions(tool: ToolEntry): Diagnostic[] {
  const found: Diagnostic[] = [];
  if (blank(tool.description)) {
    found.push(
      lintDiagnostic(
        tool,
        "W_MISSING_DESCRIPTION",
        `Tool "${tool.name}" has an empty description.`,
        "Say what the tool does and when the model should call it.",
      ),
    );
  }
  const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, schema] of Object.entries(properties)) {
    if (!blank(schema?.description)) continue;
    found.push(
      lintDiagnostic(
        tool,
        "W_MISSING_PARAMETER_DESCRIPTION",
        `Parameter "${name}" of tool "${tool.name}" has no description.`,
        'Describe it: `Type.String({ description: "..." })` or `z.string().describe("...")`.',
      ),
    );
  }
  return found;
}

/** The top level of a tool's parameters must be an object schema (`W_SCHEMA_NOT_OBJECT`). */
export function lintTopLevelObject(tool: ToolEntry): Diagnostic[] {
  if (tool.parameters.type === "object") return [];
  const actual =
    tool.parameters.type === undefined ? "no `type`" : `type ${JSON.stringify(tool.parameters.type)}`;
  return [
    lintDiagnostic(
      tool,
      "W_SCHEMA_NOT_OBJECT",
      `The parameters of tool "${tool.name}" have ${actual} at the top level; providers require "object".`,
      "Wrap the parameters in `Type.Object({ ... })` or `z.object({ ... })`.",
    ),
  ];
}
