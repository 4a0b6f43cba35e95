import type { RegisteredTool, ToolRegistry } from "../tool-registry.js";
import { failed, type StepOutcome } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/** Finds the called tool; an unknown name ends the call with the list of available tools. */
export function lookupTool(
  registry: ToolRegistry,
  name: string,
  available: () => string[],
): StepOutcome<RegisteredTool> {
  const entry = registry.get(name);
  return entry === undefined
    ? failed(toolCallMessages.unknownTool(name, available()))
    : { ok: true, value: entry };
}
