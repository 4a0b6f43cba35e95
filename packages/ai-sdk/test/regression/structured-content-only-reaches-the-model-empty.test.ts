// Failure (bug hunt, h4): a result of `structuredContent` alone (`content: []`) reached the
// model as `{ type: "text", value: "" }`, while the MCP server sends its JSON as text. Fixed:
// with no content, the structured content's JSON is the text, as over MCP.
import { describe, expect, it } from "vitest";
import { toAISDKModelOutput } from "../../src/index.js";

describe("regression: a result of structuredContent alone", () => {
  it("reaches the model as its JSON, reminders after it", () => {
    const output = { content: [], structuredContent: { temp: 21 }, reminders: ["Resolve A."] };
    expect(toAISDKModelOutput(output)).toEqual({ type: "text", value: '{"temp":21}\n\nResolve A.' });
  });
});
