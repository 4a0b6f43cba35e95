import { RESOLVE_TOOL_NAME } from "../pending/resolve-tool.js";

/**
 * Which tool the model may or must call next, provider-neutral. `"auto"`: it decides;
 * `"none"`: no tool; `"required"`: some tool; `{ type: "tool", name }`: that tool.
 */
export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; name: string };

/** While anything is pending the model is steered to `resolve`; otherwise the host's choice stands. */
export function currentToolChoice(configured: ToolChoice, hasPending: boolean): ToolChoice {
  return hasPending ? { type: "tool", name: RESOLVE_TOOL_NAME } : configured;
}
