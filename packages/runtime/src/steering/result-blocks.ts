import type { AgentToolResult, ImageContent, ToolResultContent } from "@tooldock/sdk";
import { copyBlock } from "../session/execute/read-result.js";
import { truncateContent } from "../session/execute/truncate-content.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../session/session-options.js";

/**
 * The content blocks of a result, in order, each read as the session reads a tool's result
 * (text, image, audio, resource link, embedded resource); anything else (a block of an unknown
 * type, a missing `content`, a value that is not a result at all) is skipped. A result with
 * no block but a `structuredContent` object gives its JSON as the one text block, as the MCP
 * server sends it (cut at the session's default `maxResultChars`, as the session cuts text);
 * beside content, `structuredContent` is left out.
 */
export function resultBlocks(result: AgentToolResult | unknown): ToolResultContent[] {
  if (typeof result !== "object" || result === null) return [];
  const { content, structuredContent } = result as { content?: unknown; structuredContent?: unknown };
  const blocks = Array.isArray(content) ? content.flatMap((block) => copyBlock(block) ?? []) : [];
  if (blocks.length > 0) return blocks;
  const json = structuredText(structuredContent);
  if (json === undefined) return [];
  return truncateContent({ content: [{ type: "text", text: json }] }, DEFAULT_MAX_RESULT_CHARS).content;
}

/** The JSON of a `structuredContent` object; undefined when it is none or JSON refuses it. */
function structuredText(structured: unknown): string | undefined {
  if (typeof structured !== "object" || structured === null || Array.isArray(structured)) return undefined;
  try {
    return JSON.stringify(structured);
  } catch {
    return undefined;
  }
}

/** The text that stands in for an image a provider's tool result cannot carry. */
export function imageLeftOut(image: ImageContent, why: string): string {
  return `[${image.mimeType} image left out: ${why}]`;
}

/** A provider's image types: which image blocks it takes, and every other block as its text. */
export interface ImageTypes {
  /** Whether `block` is an image of one of the types, sent as an image. */
  taken(block: ToolResultContent): block is ImageContent;
  /** Any other block as the text the provider gets (`why` for {@link blockText}); an image of another type as a note (`imageNote`). */
  asText(block: ToolResultContent, why: string): string;
}

/** The {@link ImageTypes} of a provider that takes images of `types` (MIME types), saying `imageNote` of the rest. */
export function imageTypes(types: readonly string[], imageNote: string): ImageTypes {
  return {
    taken: (block): block is ImageContent => block.type === "image" && types.includes(block.mimeType),
    asText: (block, why) => (block.type === "image" ? imageLeftOut(block, imageNote) : blockText(block, why)),
  };
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
