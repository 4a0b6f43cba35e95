import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { steeringOf } from "./tool-definitions.js";

/** A Gemini function declaration; the parameters go in as full JSON Schema (`parametersJsonSchema`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
}

/** Gemini's `toolConfig.functionCallingConfig` (the values of `FunctionCallingConfigMode`). */
export interface GeminiFunctionCallingConfig {
  mode: "AUTO" | "ANY" | "NONE";
  allowedFunctionNames?: string[];
}

/** The `tools` and `toolConfig` fields of a Gemini `generateContent` config. */
export interface GeminiRequest {
  tools: [{ functionDeclarations: GeminiFunctionDeclaration[] }];
  toolConfig: { functionCallingConfig: GeminiFunctionCallingConfig };
}

/**
 * The session's active tools and tool choice as Gemini request fields. While an action is
 * pending, the mode is `ANY` with `allowedFunctionNames: ["resolve"]`.
 *
 * @example
 * ```ts
 * const { tools, toolConfig } = toGeminiRequest(session);
 * await ai.models.generateContent({ model, contents, config: { tools, toolConfig } });
 * ```
 */
export function toGeminiRequest(session: Session): GeminiRequest {
  const { tools, choice } = steeringOf(session);
  return {
    tools: [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.parameters,
        })),
      },
    ],
    toolConfig: { functionCallingConfig: geminiFunctionCalling(choice) },
  };
}

function geminiFunctionCalling(choice: ToolChoice): GeminiFunctionCallingConfig {
  if (choice === "auto") return { mode: "AUTO" };
  if (choice === "none") return { mode: "NONE" };
  if (choice === "required") return { mode: "ANY" };
  return { mode: "ANY", allowedFunctionNames: [choice.name] };
}
