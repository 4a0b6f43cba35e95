import type { AgentToolResult } from "@tooldock/sdk";
import { imageTypes, resultBlocks } from "./result-blocks.js";

const NOTE = "Gemini function responses carry text and images only";
/** The image types Gemini takes in a multimodal function response; any other becomes a note. */
const GEMINI_IMAGES = imageTypes(
  ["image/png", "image/jpeg", "image/webp"],
  "Gemini function responses accept PNG, JPEG and WebP images",
);

/** A Gemini `functionResponse` part, sent in a `user` content after the model's `functionCall`. */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    /** The `functionCall`'s `id`, when the model gave one. */
    id?: string;
    name: string;
    /** `{ output }` for a result, `{ error }` for an error result: the keys Gemini documents. */
    response: { output: string } | { error: string };
    /** The result's images, as inline data (multimodal function responses). */
    parts?: Array<{ inlineData: { mimeType: string; data: string } }>;
  };
}

/**
 * A tool result as the Gemini `functionResponse` part that answers the function call
 * `name`: the texts, joined by newlines, go in `response.output`, or in `response.error`
 * when `isError`; images go in `parts` as inline data, except those of a type Gemini does
 * not take there (other than PNG, JPEG and WebP), which become a text note naming their type
 * in the output. Pass the call's `id` as `options.id` when the model sent one, so parallel
 * calls of one function pair up.
 *
 * @example
 * ```ts
 * const result = await session.execute({ toolCallId: call.id ?? call.name, name: call.name, params: call.args });
 * contents.push({ role: "user", parts: [toGeminiFunctionResponse(call.name, result, { id: call.id })] });
 * ```
 */
export function toGeminiFunctionResponse(
  name: string,
  result: AgentToolResult,
  options: { id?: string | undefined } = {},
): GeminiFunctionResponsePart {
  const blocks = resultBlocks(result);
  const { taken, asText } = GEMINI_IMAGES;
  const text = blocks.flatMap((block) => (taken(block) ? [] : [asText(block, NOTE)])).join("\n");
  const parts = blocks.flatMap((block) =>
    taken(block) ? [{ inlineData: { mimeType: block.mimeType, data: block.data } }] : [],
  );
  return {
    functionResponse: {
      ...(options.id === undefined ? {} : { id: options.id }),
      name,
      response: result.isError === true ? { error: text } : { output: text },
      ...(parts.length > 0 ? { parts } : {}),
    },
  };
}
