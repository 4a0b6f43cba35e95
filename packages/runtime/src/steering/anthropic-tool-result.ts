import type { AgentToolResult, ImageContent } from "@tooldock/sdk";
import { blockText, imageLeftOut, resultBlocks } from "./result-blocks.js";

/** The image types Anthropic accepts in a base64 image block. */
export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

const MEDIA_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** A block inside an Anthropic `tool_result`. */
export type AnthropicToolResultBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } };

/** An Anthropic `tool_result` content block, sent in the user message after the `tool_use`. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  /** Left out when the result has no content. */
  content?: AnthropicToolResultBlock[];
  is_error: boolean;
}

/**
 * A tool result as the Anthropic `tool_result` block that answers the `tool_use` block
 * `toolUseId`: text blocks as text, images as base64 image blocks, `isError` as `is_error`.
 * Empty text blocks are left out (the API rejects them). An image of a type Anthropic does
 * not accept (other than JPEG, PNG, GIF and WebP) becomes a text note naming its type.
 *
 * @example
 * ```ts
 * const result = await session.execute({ toolCallId: block.id, name: block.name, params: block.input });
 * messages.push({ role: "user", content: [toAnthropicToolResult(block.id, result)] });
 * ```
 */
export function toAnthropicToolResult(toolUseId: string, result: AgentToolResult): AnthropicToolResult {
  const content = resultBlocks(result)
    .filter((block) => block.type !== "text" || block.text !== "")
    .map(
      (block): AnthropicToolResultBlock =>
        block.type === "image"
          ? anthropicImage(block)
          : { type: "text", text: blockText(block, "Anthropic tool results carry text and images only") },
    );
  return {
    type: "tool_result",
    tool_use_id: toolUseId,
    ...(content.length > 0 ? { content } : {}),
    is_error: result.isError === true,
  };
}

function anthropicImage(image: ImageContent): AnthropicToolResultBlock {
  if (!MEDIA_TYPES.includes(image.mimeType)) {
    return { type: "text", text: imageLeftOut(image, "Anthropic accepts JPEG, PNG, GIF and WebP images") };
  }
  return {
    type: "image",
    source: { type: "base64", media_type: image.mimeType as AnthropicImageMediaType, data: image.data },
  };
}
