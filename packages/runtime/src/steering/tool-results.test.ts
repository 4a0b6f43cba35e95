import { errorResult, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { toAnthropicToolResult } from "./anthropic-tool-result.js";
import { toGeminiFunctionResponse } from "./gemini-function-response.js";
import { toOpenAIResponsesToolOutput, toOpenAIToolMessage } from "./openai-tool-result.js";

const withImages = {
  content: [
    { type: "text" as const, text: "Rendered:" },
    { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
    { type: "text" as const, text: "and a diagram" },
    { type: "image" as const, data: "PHN2Zy8+", mimeType: "image/svg+xml" },
  ],
};

describe("toOpenAIToolMessage", () => {
  it("answers the call with the texts joined by newlines", () => {
    const result = { content: [...textResult("one").content, ...textResult("two").content] };
    expect(toOpenAIToolMessage("call_1", result)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "one\ntwo",
    });
  });

  it("replaces each image with a note, since tool messages carry text only", () => {
    expect(toOpenAIToolMessage("call_1", withImages).content).toBe(
      [
        "Rendered:",
        "[image/png image left out: Chat Completions tool messages carry text only]",
        "and a diagram",
        "[image/svg+xml image left out: Chat Completions tool messages carry text only]",
      ].join("\n"),
    );
  });

  it("keeps an error result's text (the API has no error flag)", () => {
    expect(toOpenAIToolMessage("call_1", errorResult('Tool "x" failed: boom.'))).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: 'Tool "x" failed: boom.',
    });
  });
});

describe("toOpenAIResponsesToolOutput", () => {
  it("gives a string output for a result of text only", () => {
    expect(toOpenAIResponsesToolOutput("call_1", textResult("done"))).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: "done",
    });
  });

  it("gives input_text and input_image parts, in order, and notes images of other types", () => {
    expect(toOpenAIResponsesToolOutput("call_1", withImages).output).toEqual([
      { type: "input_text", text: "Rendered:" },
      { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
      { type: "input_text", text: "and a diagram" },
      {
        type: "input_text",
        text: "[image/svg+xml image left out: the Responses API accepts JPEG, PNG, GIF and WebP images]",
      },
    ]);
  });
});

describe("toAnthropicToolResult", () => {
  it("maps text and isError to a tool_result block", () => {
    expect(toAnthropicToolResult("toolu_1", errorResult("nope"))).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: [{ type: "text", text: "nope" }],
      is_error: true,
    });
    expect(toAnthropicToolResult("toolu_1", textResult("ok")).is_error).toBe(false);
  });

  it("sends supported images as base64 image blocks and notes the others", () => {
    expect(toAnthropicToolResult("toolu_1", withImages).content).toEqual([
      { type: "text", text: "Rendered:" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "text", text: "and a diagram" },
      {
        type: "text",
        text: "[image/svg+xml image left out: Anthropic accepts JPEG, PNG, GIF and WebP images]",
      },
    ]);
  });

  it("leaves out empty text blocks, and content when nothing is left", () => {
    expect(toAnthropicToolResult("toolu_1", { content: [{ type: "text", text: "" }] })).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      is_error: false,
    });
  });
});

describe("toGeminiFunctionResponse", () => {
  it("puts the text in response.output", () => {
    expect(toGeminiFunctionResponse("read_file", textResult("contents"))).toEqual({
      functionResponse: { name: "read_file", response: { output: "contents" } },
    });
  });

  it("puts an error result's text in response.error and carries the call id", () => {
    expect(toGeminiFunctionResponse("read_file", errorResult("missing"), { id: "fc_1" })).toEqual({
      functionResponse: { id: "fc_1", name: "read_file", response: { error: "missing" } },
    });
  });

  it("sends images as inline data parts, and notes those of other types", () => {
    expect(toGeminiFunctionResponse("render", withImages)).toEqual({
      functionResponse: {
        name: "render",
        response: {
          output: [
            "Rendered:",
            "and a diagram",
            "[image/svg+xml image left out: Gemini function responses accept PNG, JPEG and WebP images]",
          ].join("\n"),
        },
        parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
      },
    });
  });
});

describe("a result that is not well formed", () => {
  it("is read as far as it goes and never throws", () => {
    const odd = {
      content: [null, { type: "text", text: 1 }, { type: "audio" }, { type: "text", text: "kept" }],
    };
    // biome-ignore lint/suspicious/noExplicitAny: a host may hand over a result it built by hand.
    const result = odd as any;
    expect(toOpenAIToolMessage("c", result).content).toBe("kept");
    expect(toOpenAIResponsesToolOutput("c", { content: undefined } as never).output).toBe("");
    expect(toAnthropicToolResult("c", result).content).toEqual([{ type: "text", text: "kept" }]);
    expect(toGeminiFunctionResponse("f", result).functionResponse.response).toEqual({ output: "kept" });
  });
});

describe("audio, resource links and embedded resources", () => {
  const attachments = {
    content: [
      { type: "audio" as const, data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link" as const, uri: "file:///q3.md", name: "q3.md", mimeType: "text/markdown" },
      {
        type: "resource" as const,
        resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "alpha" },
      },
      {
        type: "resource" as const,
        resource: { uri: "file:///b.pdf", mimeType: "application/pdf", blob: "JVBE" },
      },
      { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
    ],
  };
  const lines = (why: string) => [
    `[audio/wav audio left out: ${why}]`,
    "[resource link q3.md: file:///q3.md (text/markdown)]",
    "[resource file:///a.txt (text/plain)]\nalpha",
    `[application/pdf resource file:///b.pdf left out: ${why}]`,
  ];

  it("become text where each API takes text: notes for what it cannot carry, the text of a text resource", () => {
    const chat = "Chat Completions tool messages carry text only";
    expect(toOpenAIToolMessage("c", attachments).content).toBe(
      [...lines(chat), `[image/png image left out: ${chat}]`].join("\n"),
    );
    const responses = toOpenAIResponsesToolOutput("c", attachments).output;
    expect(responses).toEqual([
      ...lines("Responses API function outputs carry text and images only").map((text) => ({
        type: "input_text",
        text,
      })),
      { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
    ]);
    expect(toAnthropicToolResult("t", attachments).content).toEqual([
      ...lines("Anthropic tool results carry text and images only").map((text) => ({ type: "text", text })),
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ]);
    expect(toGeminiFunctionResponse("f", attachments).functionResponse).toEqual({
      name: "f",
      response: { output: lines("Gemini function responses carry text and images only").join("\n") },
      parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
    });
  });
});
