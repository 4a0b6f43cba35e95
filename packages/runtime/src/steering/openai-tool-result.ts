import type { AgentToolResult } from "@tooldock/sdk";
import { blocksText, imageDataUrl, imageTypes, resultBlocks } from "./result-blocks.js";

/** A Chat Completions tool message (`role: "tool"`) answering one tool call. */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

const CHAT_IMAGE_NOTE = "Chat Completions tool messages carry text only";
/** Why audio and binary resources become notes in a Responses API function output. */
const RESPONSES_NOTE = "Responses API function outputs carry text and images only";
/** The image types the Responses API takes as input (GIF not animated); any other becomes a note. */
const RESPONSES_IMAGES = imageTypes(
  ["image/jpeg", "image/png", "image/gif", "image/webp"],
  "the Responses API accepts JPEG, PNG, GIF and WebP images",
);

/**
 * A tool result as the Chat Completions message that answers the call `toolCallId`.
 *
 * Chat Completions tool messages take text only, so the content is the result's text
 * blocks joined by newlines, and each image becomes a note such as
 * `[image/png image left out: Chat Completions tool messages carry text only]`. A host that
 * must show the model an image can send it in a user message after the tool messages, or
 * use the Responses API ({@link toOpenAIResponsesToolOutput}). The API has no error flag:
 * an error result's text already says what failed.
 *
 * @example
 * ```ts
 * const result = await session.execute({ toolCallId: call.id, name: call.function.name, params: JSON.parse(call.function.arguments) });
 * messages.push(toOpenAIToolMessage(call.id, result));
 * ```
 */
export function toOpenAIToolMessage(toolCallId: string, result: AgentToolResult): OpenAIToolMessage {
  return {
    role: "tool",
    tool_call_id: toolCallId,
    content: blocksText(resultBlocks(result), CHAT_IMAGE_NOTE),
  };
}

/** One part of a Responses API function call output list. */
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string };

/** A Responses API `function_call_output` input item answering one function call. */
export interface OpenAIResponsesToolOutput {
  type: "function_call_output";
  call_id: string;
  /** The text alone when the result has no image; otherwise the text and image parts in order. */
  output: string | OpenAIResponsesOutputPart[];
}

/**
 * A tool result as the Responses API `function_call_output` item that answers the function
 * call `callId` (the call's `call_id`, not its `id`). A result of text only gives its texts
 * joined by newlines; a result with images gives a list of `input_text` and `input_image`
 * parts (the image as a base64 `data:` URL) in the result's order. An image of a type the API
 * does not take (other than JPEG, PNG, GIF and WebP) becomes a text note naming its type.
 * The API has no error flag: an error result's text already says what failed.
 *
 * @example
 * ```ts
 * const result = await session.execute({ toolCallId: item.call_id, name: item.name, params: JSON.parse(item.arguments) });
 * input.push(item, toOpenAIResponsesToolOutput(item.call_id, result));
 * ```
 */
export function toOpenAIResponsesToolOutput(
  callId: string,
  result: AgentToolResult,
): OpenAIResponsesToolOutput {
  const blocks = resultBlocks(result);
  const { taken, asText } = RESPONSES_IMAGES;
  const output = blocks.some(taken)
    ? blocks.map(
        (block): OpenAIResponsesOutputPart =>
          taken(block)
            ? { type: "input_image", image_url: imageDataUrl(block) }
            : { type: "input_text", text: asText(block, RESPONSES_NOTE) },
      )
    : blocks.map((block) => asText(block, RESPONSES_NOTE)).join("\n");
  return { type: "function_call_output", call_id: callId, output };
}
