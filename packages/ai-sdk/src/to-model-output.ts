import { blocksText, resultBlocks } from "@tooldock/runtime";
import { imageTypes } from "@tooldock/runtime/internal";
import type { ToolResultPart } from "ai";

/** What the model reads of a tool result: the AI SDK's `ToolResultOutput`. */
export type AISDKModelOutput = ToolResultPart["output"];

/** Why an image becomes a note in an error output. */
const ERROR_TEXT_ONLY = "the AI SDK's error output carries text only";
/** Why audio and binary resources become notes in a text or content output. */
const CONTENT_TEXT_AND_IMAGES = "Tooldock sends the AI SDK text and images only";
/**
 * The image types every provider behind the AI SDK takes in a tool result (OpenAI and
 * Anthropic: JPEG, PNG, GIF, WebP; Gemini's function responses: PNG, JPEG, WebP). The AI SDK
 * passes a file part on as it is and `toModelOutput` is not told the provider: any other
 * type becomes a note.
 */
const { taken: takenImage, asText: contentText } = imageTypes(
  ["image/jpeg", "image/png", "image/webp"],
  "Tooldock sends the AI SDK JPEG, PNG and WebP images, the types every provider takes",
);

/**
 * The model's view of a Tooldock tool result, in the AI SDK's output types:
 *
 * - a result with text only: `{ type: "text", value }`, the texts joined by newlines;
 * - a result with images: `{ type: "content", value }` with a `text` part per non-empty text
 *   block and a `file` part (`mediaType`, base64 `data`) per image block, in the result's order;
 * - an image of a type some provider refuses (other than JPEG, PNG and WebP: GIF, SVG, …)
 *   becomes a note naming its type, since the AI SDK does not say where the output goes;
 * - an `isError` result: `{ type: "error-text", value }` (the AI SDK's error output carries
 *   text only, so each image becomes a note saying it was left out);
 * - each reminder is appended after the result's own blocks: as its own text part, or after
 *   a blank line in a text output.
 *
 * It reads `output` defensively (an output that round-tripped through a UI message store may
 * be anything): blocks that are not text or image are skipped, and a value that is not a
 * result at all reads as empty.
 *
 * @example
 * ```ts
 * toAISDKModelOutput({ content: [{ type: "text", text: "done" }], reminders: [] });
 * // { type: "text", value: "done" }
 * ```
 */
export function toAISDKModelOutput(output: unknown): AISDKModelOutput {
  const blocks = resultBlocks(output);
  const reminders = readReminders(output);
  if (isErrorResult(output)) {
    return { type: "error-text", value: withReminders(blocksText(blocks, ERROR_TEXT_ONLY), reminders) };
  }
  if (!blocks.some(takenImage)) {
    const text = blocks.map((block) => contentText(block, CONTENT_TEXT_AND_IMAGES)).join("\n");
    return { type: "text", value: withReminders(text, reminders) };
  }
  return {
    type: "content",
    value: [
      ...blocks
        // Anthropic rejects empty text parts; an empty block says nothing to the model anyway.
        .filter((block) => block.type !== "text" || block.text !== "")
        .map((block) =>
          takenImage(block)
            ? {
                type: "file" as const,
                mediaType: block.mimeType,
                data: { type: "data" as const, data: block.data },
              }
            : { type: "text" as const, text: contentText(block, CONTENT_TEXT_AND_IMAGES) },
        ),
      ...reminders.map((text) => ({ type: "text" as const, text })),
    ],
  };
}

function withReminders(text: string, reminders: string[]): string {
  return [text, ...reminders].filter((part) => part !== "").join("\n\n");
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function isErrorResult(output: unknown): boolean {
  return field(output, "isError") === true;
}

function readReminders(output: unknown): string[] {
  const reminders = field(output, "reminders");
  return Array.isArray(reminders) ? reminders.filter((text): text is string => typeof text === "string") : [];
}
