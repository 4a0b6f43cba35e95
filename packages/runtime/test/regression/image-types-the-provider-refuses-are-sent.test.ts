import { describe, expect, it } from "vitest";
import { toGeminiFunctionResponse } from "../../src/steering/gemini-function-response.js";
import { toOpenAIResponsesToolOutput } from "../../src/steering/openai-tool-result.js";

/**
 * Failure (bug hunt, h4): an image of a type the provider refuses (`image/svg+xml`) went out
 * as it was: an `input_image` to the Responses API (which takes JPEG, PNG, GIF and WebP) and
 * a Gemini `inlineData` part (multimodal function responses take PNG, JPEG and WebP), so the
 * request failed. Only the Anthropic converter named it in a text note. Fixed: each
 * converter sends such an image as a note naming its type, and the others as before.
 */
const PNG = "iVBORw0KGgo=";
const chart = {
  content: [
    { type: "text" as const, text: "chart" },
    { type: "image" as const, data: "PHN2Zy8+", mimeType: "image/svg+xml" },
  ],
};

describe("an image of a type the provider refuses", () => {
  it("Responses API: a note, and a string output when no image is left", () => {
    expect(toOpenAIResponsesToolOutput("c1", chart).output).toBe(
      "chart\n[image/svg+xml image left out: the Responses API accepts JPEG, PNG, GIF and WebP images]",
    );
  });

  it("Responses API: a note in its place beside the images it takes", () => {
    const both = {
      content: [...chart.content, { type: "image" as const, data: PNG, mimeType: "image/png" }],
    };
    expect(toOpenAIResponsesToolOutput("c1", both).output).toEqual([
      { type: "input_text", text: "chart" },
      {
        type: "input_text",
        text: "[image/svg+xml image left out: the Responses API accepts JPEG, PNG, GIF and WebP images]",
      },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
  });

  it("Gemini: a note in the output, no inline data part", () => {
    expect(toGeminiFunctionResponse("render", chart).functionResponse).toEqual({
      name: "render",
      response: {
        output:
          "chart\n[image/svg+xml image left out: Gemini function responses accept PNG, JPEG and WebP images]",
      },
    });
  });
});
