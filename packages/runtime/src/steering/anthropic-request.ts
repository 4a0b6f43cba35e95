import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { steeringOf } from "./tool-definitions.js";

/** An Anthropic Messages API tool (`tools[]` of `messages.create`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
}

/** Anthropic's `tool_choice`. `"required"` maps to `{ type: "any" }`. */
export type AnthropicToolChoice =
  | { type: "auto" }
  | { type: "any" }
  | { type: "none" }
  | { type: "tool"; name: string };

/** The `tools` and `tool_choice` fields of an Anthropic Messages request. */
export interface AnthropicRequest {
  tools: AnthropicTool[];
  tool_choice: AnthropicToolChoice;
}

/**
 * The session's active tools and tool choice as Anthropic Messages request fields. While an
 * action is pending, `tool_choice` is `{ type: "tool", name: "resolve" }`.
 *
 * @example
 * ```ts
 * await anthropic.messages.create({ model, max_tokens: 1024, messages, ...toAnthropicRequest(session) });
 * ```
 */
export function toAnthropicRequest(session: Session): AnthropicRequest {
  const { tools, choice } = steeringOf(session);
  return {
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    })),
    tool_choice: anthropicToolChoice(choice),
  };
}

function anthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}
