import type { AgentToolResult } from "@tooldock/sdk";
import type { RegisteredTool, ToolRegistry } from "../tool-registry.js";
import { failed } from "./tool-call.js";
import { toolCallMessages } from "./tool-call-messages.js";

// Captured when this module is evaluated: a tool module cannot change how a lookup is read.
const hasOwn = Object.hasOwn;

/**
 * Finds the called tool; an unknown name ends the call with the list of available tools (a
 * result, told apart by the registry entry's own `execute`). No wrapper object per call.
 */
export function lookupTool(
  registry: ToolRegistry,
  name: string,
  available: () => string[],
): RegisteredTool | AgentToolResult {
  return registry.get(name) ?? failed(toolCallMessages.unknownTool(name, available())).result;
}

/**
 * Whether {@link lookupTool} found the tool. An own property, not `in`: an `execute` a tool
 * module put on `Object.prototype` would make every result look like a registered tool.
 */
export function isRegistered(lookup: RegisteredTool | AgentToolResult): lookup is RegisteredTool {
  return hasOwn(lookup, "execute");
}
