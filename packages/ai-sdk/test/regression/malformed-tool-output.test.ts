// Attack: `toModelOutput` is also called by `convertToModelMessages` on outputs read back from a
// UI message store, which may hold anything (an old format, a hand-edited record, a value a
// client sent). A mapper that trusted the shape threw a TypeError there (`content.map` of
// undefined, `.text` of null) and broke the whole conversion. It now reads defensively.
import { describe, expect, it } from "vitest";
import { toAISDKModelOutput } from "../../src/index.js";

describe("regression: malformed tool output reaching toModelOutput", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "just text"],
    ["a number", 42],
    ["an array", [1, 2]],
    ["an object without content", { reminders: "not a list" }],
    ["content that is not a list", { content: "text" }],
  ])("answers %s with an empty text output", (_name, output) => {
    expect(toAISDKModelOutput(output)).toEqual({ type: "text", value: "" });
  });

  it("skips blocks of no content type or a broken shape, and reminders that are not strings", () => {
    const output = {
      content: [
        null,
        7,
        { type: "text" },
        { type: "text", text: 5 },
        { type: "image", data: "AAAA" },
        { type: "video", data: "AAAA", mimeType: "video/mp4" },
        { type: "resource", resource: { uri: "file:///a", text: "a", blob: "AAAA" } },
        { type: "text", text: "kept" },
      ],
      reminders: [null, 3, "Resolve A."],
    };
    expect(toAISDKModelOutput(output)).toEqual({ type: "text", value: "kept\n\nResolve A." });
  });

  it("treats only isError === true as an error", () => {
    expect(toAISDKModelOutput({ content: [{ type: "text", text: "x" }], isError: "yes" })).toEqual({
      type: "text",
      value: "x",
    });
  });
});
