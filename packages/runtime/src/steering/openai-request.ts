import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { steeringOf } from "./tool-definitions.js";

/** An OpenAI Chat Completions function tool (`tools[]` of `chat.completions.create`). */
export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** OpenAI's `tool_choice`: the three strings, or one named function. */
export type OpenAIToolChoice =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

/** The `tools` and `tool_choice` fields of an OpenAI Chat Completions request. */
export interface OpenAIRequest {
  tools: OpenAITool[];
  tool_choice: OpenAIToolChoice;
}

/**
 * The session's active tools and tool choice as OpenAI Chat Completions request fields.
 * While an action is pending, `tool_choice` is `{ type: "function", function: { name: "resolve" } }`.
 *
 * @example
 * ```ts
 * await openai.chat.completions.create({ model, messages, ...toOpenAIRequest(session) });
 * ```
 */
export function toOpenAIRequest(session: Session): OpenAIRequest {
  const { tools, choice } = steeringOf(session);
  return {
    tools: tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
    tool_choice: openAIToolChoice(choice),
  };
}

function openAIToolChoice(choice: ToolChoice): OpenAIToolChoice {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}
