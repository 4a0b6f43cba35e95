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
  if (schema === undefined || result.isError === true) return { ok: true, value: result };
  const name = entry.tool.name;
  if (result.structuredContent === undefined) return failed(toolCallMessages.missingStructuredContent(name));
  let validation: SchemaValidation;
  try {
    validation = schema.validate(result.structuredContent);
  } catch (error) {
    return failed(toolCallMessages.brokenOutputSchema(name, error));
  }
  if (!validation.success) return failed(toolCallMessages.structuredContentMismatch(name, validation.issues));
  return { ok: true, value: result };
}
