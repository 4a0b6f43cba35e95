import type { AgentToolResult } from "@tooldock/sdk";
import type { SchemaValidation } from "../../schema/tool-schema.js";
import type { RegisteredTool } from "../tool-registry.js";
import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/**
 * Checks a result against the tool's `outputSchema` before it leaves the session: a tool that
 * declares one must return `structuredContent` that matches it, unless the result is an
 * error (`isError: true`, which MCP clients do not check either). A mismatch, a missing
 * `structuredContent` or a validator that cannot run is an error result naming the tool and
 * each path, so no host or client ever gets data that contradicts the declared shape. A
 * tool without an `outputSchema` passes its `structuredContent` (a JSON object) on unchecked.
 */
export function checkStructuredContent(
  entry: RegisteredTool,
  result: AgentToolResult,
): StepOutcome<AgentToolResult> {
  const schema = entry.outputSchema;
  const problem =
    schema === undefined
      ? undefined
      : outputProblem(entry.tool.name, (value) => schema.validate(value), result);
  return problem === undefined ? { ok: true, value: result } : failed(problem);
}

/** Why `result` breaks the tool's output schema (`validate`), as a Session words it; none: it fits. */
export function outputProblem(
  name: string,
  validate: (value: unknown) => SchemaValidation,
  result: AgentToolResult,
): string | undefined {
  if (typeof result !== "object" || result === null || result.isError === true) return undefined;
  if (result.structuredContent === undefined) return toolCallMessages.missingStructuredContent(name);
  let validation: SchemaValidation;
  try {
    validation = validate(result.structuredContent);
  } catch (error) {
    return toolCallMessages.brokenOutputSchema(name, error);
  }
  return validation.success ? undefined : toolCallMessages.structuredContentMismatch(name, validation.issues);
}
