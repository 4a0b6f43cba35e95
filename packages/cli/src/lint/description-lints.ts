import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";
import { lintDiagnostic } from "./lint-diagnostic.js";

const blank = (value: unknown) => typeof value !== "string" || value.trim() === "";

type Schema = Record<string, unknown>;

/**
 * Whether a parameter's schema is described: on itself, or on every branch of its `anyOf` or
 * `oneOf` that is not `null`. The nullable optional property W_OPENAI_STRICT recommends,
 * `Type.Optional(Type.Union([Type.String({ description }), Type.Null()]))` or zod's
 * `.describe(…).nullish()`, keeps its description on the branch.
 */
function described(schema: Schema | undefined): boolean {
  if (schema === undefined || schema === null) return false;
  if (!blank(schema.description)) return true;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (!Array.isArray(branches)) return false;
  const values = branches.filter((branch) => branch?.type !== "null");
  return values.length > 0 && values.every(described);
}

/**
 * The model chooses tools and fills arguments from descriptions alone: the tool and each
 * top-level parameter need one (`W_MISSING_DESCRIPTION`, `W_MISSING_PARAMETER_DESCRIPTION`);
 * a parameter's may sit on each non-null branch of its union (see `described`).
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
  const properties = (tool.parameters.properties ?? {}) as Record<string, Schema>;
  for (const [name, schema] of Object.entries(properties)) {
    if (described(schema)) continue;
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
