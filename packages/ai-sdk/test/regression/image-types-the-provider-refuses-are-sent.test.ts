// Failure (bug hunt, h4): an image of a type providers refuse (`image/svg+xml`) became a `file`
// part of the tool output, which the AI SDK hands to the provider as it is: OpenAI and
// Anthropic take JPEG, PNG, GIF and WebP, Gemini's function responses PNG, JPEG and WebP, so
// the request failed. The AI SDK does not say which provider the output goes to. Fixed: only
// the types every one of them takes (JPEG, PNG, WebP) go as files; any other image is a note
// naming its type.
import { describe, expect, it } from "vitest";
import { toAISDKModelOutput } from "../../src/index.js";

const NOTE = "Tooldock sends the AI SDK JPEG, PNG and WebP images, the types every provider takes";

describe("regression: an image of a type providers refuse", () => {
  it("is a note in a text output when no image is left", () => {
    const output = {
      content: [
        { type: "text", text: "chart" },
        { type: "image", data: "PHN2Zy8+", mimeType: "image/svg+xml" },
      ],
      reminders: [],
    };
    expect(toAISDKModelOutput(output)).toEqual({
      type: "text",
      value: `chart\n[image/svg+xml image left out: ${NOTE}]`,
    });
  });

  it("is a note in its place beside the images every provider takes", () => {
    const output = {
      content: [
        { type: "image", data: "R0lGOD==", mimeType: "image/gif" },
        { type: "image", data: "UklGRg==", mimeType: "image/webp" },
      ],
      reminders: [],
    };
    expect(toAISDKModelOutput(output)).toEqual({
      type: "content",
      value: [
        { type: "text", text: `[image/gif image left out: ${NOTE}]` },
        { type: "file", mediaType: "image/webp", data: { type: "data", data: "UklGRg==" } },
      ],
    });
  });
});
