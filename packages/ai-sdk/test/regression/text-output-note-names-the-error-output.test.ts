// Failure (bug hunt, h4): a text output (a result without images) explained each note with
// the error output's reason, `[audio/wav audio left out: the AI SDK's error output carries
// text only]`, though the result was no error. Fixed: the reason a content output gives.
import { describe, expect, it } from "vitest";
import { toAISDKModelOutput } from "../../src/index.js";

describe("regression: a note in a text output", () => {
  it("gives the reason of a result that is no error", () => {
    const output = {
      content: [
        { type: "text", text: "Recorded" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      ],
      reminders: [],
    };
    expect(toAISDKModelOutput(output)).toEqual({
      type: "text",
      value: "Recorded\n[audio/wav audio left out: Tooldock sends the AI SDK text and images only]",
    });
  });
});
