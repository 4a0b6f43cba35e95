import { describe, expect, it } from "vitest";
import { toOpenAIResponsesToolOutput } from "../../src/steering/openai-tool-result.js";

/**
 * Failure (bug hunt, h4): a Responses API output without images explained each note with
 * the Chat Completions reason, `[audio/wav audio left out: Chat Completions tool messages
 * carry text only]`, though the Responses API carries images too. Fixed: the Responses
 * reason, as in an output with images.
 */
describe("a note in a Responses API output without images", () => {
  it("gives the Responses API's reason", () => {
    const recorded = {
      content: [
        { type: "text" as const, text: "Recorded" },
        { type: "audio" as const, data: "UklGRg==", mimeType: "audio/wav" },
      ],
    };
    expect(toOpenAIResponsesToolOutput("c1", recorded).output).toBe(
      "Recorded\n[audio/wav audio left out: Responses API function outputs carry text and images only]",
    );
  });
});
