import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { openAIStrictProblems } from "./openai-strict-schema.js";
import { steeringOf } from "./tool-definitions.js";

/** An OpenAI Responses API function tool (`tools[]` of `responses.create`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** `true` exactly when the schema qualifies for strict mode ({@link openAIStrictProblems} finds nothing). */
  strict: boolean;
}

/** The Responses API's `tool_choice`: the three strings, or one named function. */
export type OpenAIResponsesToolChoice = "auto" | "none" | "required" | { type: "function"; name: string };

/** The `tools` and `tool_choice` fields of an OpenAI Responses API request. */
export interface OpenAIResponsesRequest {
  tools: OpenAIResponsesTool[];
  tool_choice: OpenAIResponsesToolChoice;
}

/**
 * The session's active tools and tool choice as OpenAI Responses API request fields. Each
 * tool carries `strict: true` when its schema qualifies for strict mode (every object
 * `additionalProperties: false`, every property required, no unsupported keyword) and
 * `strict: false` otherwise, since the Responses API treats a missing `strict` as `true`.
 * While an action is pending, `tool_choice` is `{ type: "function", name: "resolve" }`.
 *
 * @example
 * ```ts
 * await openai.responses.create({ model, input, ...toOpenAIResponsesRequest(session) });
 * ```
 */
export function toOpenAIResponsesRequest(session: Session): OpenAIResponsesRequest {
  const { tools, choice } = steeringOf(session);
  return {
    tools: tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: openAIStrictProblems(tool.parameters).length === 0,
    })),
    tool_choice: responsesToolChoice(choice),
  };
}

function responsesToolChoice(choice: ToolChoice): OpenAIResponsesToolChoice {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}
