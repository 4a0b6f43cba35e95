import type { AgentToolResult } from "@tooldock/sdk";
import type { RegisteredTool, ToolRegistry } from "../tool-registry.js";
import { failed } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

/**
 * Finds the called tool; an unknown name ends the call with the list of available tools (a
 * result, told apart by the registry entry's `execute`). No wrapper object per call.
 */
export function lookupTool(
  registry: ToolRegistry,
  name: string,
  available: () => string[],
): RegisteredTool | AgentToolResult {
  return registry.get(name) ?? failed(toolCallMessages.unknownTool(name, available())).result;
}

/** Whether {@link lookupTool} found the tool. */
export function isRegistered(lookup: RegisteredTool | AgentToolResult): lookup is RegisteredTool {
  return "execute" in lookup;
}
