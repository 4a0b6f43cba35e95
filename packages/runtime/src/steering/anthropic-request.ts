import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { toProviderSchema } from "./provider-schema.js";
import { steeringOf } from "./tool-definitions.js";

/** An Anthropic Messages API tool (`tools[]` of `messages.create`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
  /** Only with `{ strict: true }`: whether this tool's input goes through strict tool use. */
  strict?: boolean;
}

/** Options of {@link toAnthropicRequest}. */
export interface AnthropicRequestOptions {
  /**
   * Ask for strict tool use (`strict: true`) on every tool whose schema Anthropic's strict
   * subset can take once {@link toProviderSchema} rewrote it; the others get `strict: false`
   * and their own schema. Off by default: Anthropic compiles all strict schemas of a request
   * into one grammar and limits its size, its optional parameters and its unions.
   */
  strict?: boolean;
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
 * action is pending, `tool_choice` is `{ type: "tool", name: "resolve" }`. With
 * `{ strict: true }`, each tool that can go strict carries its rewritten schema and `strict: true`.
 *
 * @example
 * ```ts
 * await anthropic.messages.create({ model, max_tokens: 1024, messages, ...toAnthropicRequest(session) });
 * ```
 */
export function toAnthropicRequest(
  session: Session,
  options: AnthropicRequestOptions = {},
): AnthropicRequest {
  const { tools, choice } = steeringOf(session);
  return {
    tools: tools.map((tool) => {
      const definition = { name: tool.name, description: tool.description, input_schema: tool.parameters };
      if (options.strict !== true) return definition;
      const schema = toProviderSchema(tool.parameters, "anthropic");
      return schema.strict
        ? { ...definition, input_schema: schema.parameters, strict: true }
        : { ...definition, strict: false };
    }),
    tool_choice: anthropicToolChoice(choice),
  };
}

function anthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}
