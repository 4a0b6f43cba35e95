import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { toProviderSchema } from "./provider-schema.js";
import { steeringOf } from "./tool-definitions.js";

/** An OpenAI Responses API function tool (`tools[]` of `responses.create`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** `true` exactly when the schema, rewritten by {@link toProviderSchema}, qualifies for strict mode. */
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
 * tool whose schema qualifies for strict mode once {@link toProviderSchema} rewrote it (objects
 * closed, nullable optional properties required, exclusive `oneOf` as `anyOf`) carries that
 * schema and `strict: true`; any other carries its own schema and `strict: false`, since the
 * Responses API treats a missing `strict` as `true`.
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
    tools: tools.map((tool) => {
      const schema = toProviderSchema(tool.parameters, "openai");
      return {
        type: "function",
        name: tool.name,
        description: tool.description,
        parameters: schema.strict ? schema.parameters : tool.parameters,
        strict: schema.strict,
      };
    }),
    tool_choice: responsesToolChoice(choice),
  };
}

function responsesToolChoice(choice: ToolChoice): OpenAIResponsesToolChoice {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}
