import type { AgentToolResult, ImageContent, ToolResultContent } from "@tooldock/sdk";
import { copyBlock } from "../session/execute/read-result.js";

/**
 * The content blocks of a result, in order, each read as the session reads a tool's result
 * (text, image, audio, resource link, embedded resource); anything else (a block of an unknown
 * type, a missing `content`, a value that is not a result at all) is skipped.
 */
export function resultBlocks(result: AgentToolResult | unknown): ToolResultContent[] {
  const content: unknown =
    typeof result === "object" && result !== null ? (result as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => copyBlock(block) ?? []);
}

/** The text that stands in for an image a provider's tool result cannot carry. */
export function imageLeftOut(image: ImageContent, why: string): string {
  return `[${image.mimeType} image left out: ${why}]`;
}

/**
 * What a model reads of a block where the API takes text: the text itself; a note for an
 * image or audio (`[audio/wav audio left out: <why>]`) and for a binary resource; a resource
 * link as its name, address, type and description; an embedded text resource as its address
 * and type on one line and its text after it.
 */
export function blockText(block: ToolResultContent, why: string): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return imageLeftOut(block, why);
    case "audio":
      return `[${block.mimeType} audio left out: ${why}]`;
    case "resource_link": {
      const type = block.mimeType === undefined ? "" : ` (${block.mimeType})`;
      const about = block.description === undefined ? "" : `: ${block.description}`;
      return `[resource link ${block.title ?? block.name}: ${block.uri}${type}${about}]`;
    }
    case "resource": {
      const { resource } = block;
      const type = resource.mimeType === undefined ? "" : ` (${resource.mimeType})`;
      return "text" in resource
        ? `[resource ${resource.uri}${type}]\n${resource.text}`
        : `[${resource.mimeType ?? "binary"} resource ${resource.uri} left out: ${why}]`;
    }
  }
}

/**
 * Blocks (from {@link resultBlocks}) as one string: each as {@link blockText} gives it,
 * joined by newlines.
 */
export function blocksText(blocks: ToolResultContent[], why: string): string {
  return blocks.map((block) => blockText(block, why)).join("\n");
}

/** `data:` URL of a base64 image block. */
export function imageDataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
