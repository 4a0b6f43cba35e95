import type { RegisteredTool } from "../tool-registry.js";
import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** Checks the arguments against the tool's schema; the tool gets the validated value. */
export function validateArguments(entry: RegisteredTool, params: unknown): StepOutcome<unknown> {
  let validation: ReturnType<RegisteredTool["schema"]["validate"]>;
  try {
    validation = entry.schema.validate(params);
  } catch (error) {
    return failed(toolCallMessages.brokenSchema(entry.tool.name, error));
  }
  if (validation.success) return { ok: true, value: validation.value };
  return failed(toolCallMessages.invalidArguments(entry.tool.name, validation.issues));
}
