import type { Session } from "../session/session.js";
import type { ToolChoice } from "../session/tool-choice.js";
import { toProviderSchema } from "./provider-schema.js";
import { steeringOf } from "./tool-definitions.js";

/** A Gemini function declaration; the parameters go in as full JSON Schema (`parametersJsonSchema`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
}

/** The function-calling modes the adapter uses, as the strings `FunctionCallingConfigMode` holds. */
export type GeminiMode = "AUTO" | "ANY" | "NONE";

/**
 * The value to send for each mode. Pass `@google/genai`'s `FunctionCallingConfigMode` enum
 * itself so `mode` has the SDK's enum type.
 */
export interface GeminiModes<TMode> {
  AUTO: TMode;
  ANY: TMode;
  NONE: TMode;
}

/** Gemini's `toolConfig.functionCallingConfig`. */
export interface GeminiFunctionCallingConfig<TMode = GeminiMode> {
  mode: TMode;
  allowedFunctionNames?: string[];
}

/** The `tools` and `toolConfig` fields of a Gemini `generateContent` config. */
export interface GeminiRequest<TMode = GeminiMode> {
  tools: [{ functionDeclarations: GeminiFunctionDeclaration[] }];
  toolConfig: { functionCallingConfig: GeminiFunctionCallingConfig<TMode> };
}

const STRING_MODES: GeminiModes<GeminiMode> = { AUTO: "AUTO", ANY: "ANY", NONE: "NONE" };

/**
 * The session's active tools and tool choice as Gemini request fields. While an action is
 * pending, the mode is `ANY` with `allowedFunctionNames: ["resolve"]`. Each schema is rewritten
 * into Gemini's documented subset by {@link toProviderSchema} (`oneOf` as `anyOf`, `const` as a
 * one-value `enum`, keywords Gemini ignores moved into the description).
 *
 * `@google/genai` types `mode` as its string enum `FunctionCallingConfigMode`, which a plain
 * string does not satisfy. Pass that enum as `modes` and the result type-checks as a
 * `GenerateContentConfig` with no cast, while the runtime itself needs no `@google/genai`.
 * Without `modes`, `mode` is the plain string (`"AUTO"`, `"ANY"` or `"NONE"`).
 *
 * @example
 * ```ts
 * import { FunctionCallingConfigMode } from "@google/genai";
 *
 * const { tools, toolConfig } = toGeminiRequest(session, FunctionCallingConfigMode);
 * await ai.models.generateContent({ model, contents, config: { tools, toolConfig } });
 * ```
 */
export function toGeminiRequest(session: Session): GeminiRequest;
export function toGeminiRequest<TMode>(session: Session, modes: GeminiModes<TMode>): GeminiRequest<TMode>;
export function toGeminiRequest<TMode>(
  session: Session,
  modes?: GeminiModes<TMode>,
): GeminiRequest<TMode | GeminiMode> {
  const { tools, choice } = steeringOf(session);
  return {
    tools: [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: toProviderSchema(tool.parameters, "gemini").parameters,
        })),
      },
    ],
    toolConfig: {
      functionCallingConfig: geminiFunctionCalling<TMode | GeminiMode>(choice, modes ?? STRING_MODES),
    },
  };
}

function geminiFunctionCalling<TMode>(
  choice: ToolChoice,
  modes: GeminiModes<TMode>,
): GeminiFunctionCallingConfig<TMode> {
  if (choice === "auto") return { mode: modes.AUTO };
  if (choice === "none") return { mode: modes.NONE };
  if (choice === "required") return { mode: modes.ANY };
  return { mode: modes.ANY, allowedFunctionNames: [choice.name] };
}
