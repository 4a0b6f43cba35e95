import { describe, expect, it } from "vitest";
import { toAnthropicToolResult } from "../../src/steering/anthropic-tool-result.js";
import { toGeminiFunctionResponse } from "../../src/steering/gemini-function-response.js";
import { toOpenAIResponsesToolOutput, toOpenAIToolMessage } from "../../src/steering/openai-tool-result.js";

/**
 * Failure (bug hunt, h4): a result of `structuredContent` alone (`content: []`) reached the
 * model empty through every provider converter (Chat Completions `content: ""`, Responses
 * `output: ""`, Gemini `{ output: "" }`, an Anthropic `tool_result` without content), while
 * the MCP server sends its JSON as the one text block. Fixed: the converters follow the MCP
 * rule: with no content, the structured content's JSON is the text; with content, the content
 * alone (as MCP clients that read text get it).
 */
const JSON_TEXT = '{"temp":21}';
const structuredOnly = { content: [], structuredContent: { temp: 21 } };

describe("a result of structuredContent alone", () => {
  it("reaches the model as its JSON through each converter", () => {
    expect(toOpenAIToolMessage("c1", structuredOnly).content).toBe(JSON_TEXT);
    expect(toOpenAIResponsesToolOutput("c1", structuredOnly).output).toBe(JSON_TEXT);
    expect(toAnthropicToolResult("t1", structuredOnly).content).toEqual([{ type: "text", text: JSON_TEXT }]);
    expect(toGeminiFunctionResponse("f", structuredOnly).functionResponse.response).toEqual({
      output: JSON_TEXT,
    });
    expect(
      toGeminiFunctionResponse("f", { ...structuredOnly, isError: true }).functionResponse.response,
    ).toEqual({ error: JSON_TEXT });
  });

  it("stays out when the result has content, as over MCP", () => {
    const both = { content: [{ type: "text" as const, text: "21 °C" }], structuredContent: { temp: 21 } };
    expect(toOpenAIToolMessage("c1", both).content).toBe("21 °C");
  });

  it("is cut as the session cuts text, at 100,000 characters by default", () => {
    const huge = { content: [], structuredContent: { text: "x".repeat(150_000) } };
    const text = toOpenAIToolMessage("c1", huge).content;
    expect(text.startsWith('{"text":"xxx')).toBe(true);
    expect(text).toMatch(/… \[truncated 50011 characters\]$/);
  });
});
