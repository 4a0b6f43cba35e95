import type { AgentToolResult, ImageContent, TextContent } from "@tooldock/sdk";

/**
 * The text and image blocks of a result, in order; anything else (a missing `content`, a value
 * that is not a result at all) is skipped.
 */
export function resultBlocks(result: AgentToolResult | unknown): Array<TextContent | ImageContent> {
  const content: unknown =
    typeof result === "object" && result !== null ? (result as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is TextContent | ImageContent =>
      (block?.type === "text" && typeof block.text === "string") ||
      (block?.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string"),
  );
}

/** The text that stands in for an image a provider's tool result cannot carry. */
export function imageLeftOut(image: ImageContent, why: string): string {
  return `[${image.mimeType} image left out: ${why}]`;
}

/**
 * Blocks (from {@link resultBlocks}) as one string: the texts, with each image replaced by its
 * note, joined by newlines.
 */
export function blocksText(blocks: Array<TextContent | ImageContent>, why: string): string {
  return blocks.map((block) => (block.type === "text" ? block.text : imageLeftOut(block, why))).join("\n");
}

/** `data:` URL of a base64 image block. */
export function imageDataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
