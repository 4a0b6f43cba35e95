// Every adapter's output, passed where the official SDKs' own request types expect it.
// Type-checked only (vitest --typecheck and tsc); nothing here calls a provider.
import type Anthropic from "@anthropic-ai/sdk";
import type {
  FunctionCallingConfigMode,
  GenerateContentConfig,
  GenerateContentParameters,
  Part,
} from "@google/genai";
import type { AgentToolResult } from "@tooldock/sdk";
import type OpenAI from "openai";
import { describe, expectTypeOf, it } from "vitest";
import type { Session } from "../session/session.js";
import { toAnthropicRequest } from "./anthropic-request.js";
import { toAnthropicToolResult } from "./anthropic-tool-result.js";
import { toGeminiFunctionResponse } from "./gemini-function-response.js";
import { type GeminiMode, toGeminiRequest } from "./gemini-request.js";
import { toOpenAIRequest } from "./openai-request.js";
import { toOpenAIResponsesRequest } from "./openai-responses-request.js";
import { toOpenAIResponsesToolOutput, toOpenAIToolMessage } from "./openai-tool-result.js";

declare const session: Session;
declare const result: AgentToolResult;
declare const enumModes: typeof FunctionCallingConfigMode;

describe("OpenAI Chat Completions", () => {
  it("takes toOpenAIRequest's fields and toOpenAIToolMessage's message", () => {
    const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-4.1",
      messages: [{ role: "user", content: "hi" }, toOpenAIToolMessage("call_1", result)],
      ...toOpenAIRequest(session),
    };
    expectTypeOf(params).toExtend<OpenAI.Chat.Completions.ChatCompletionCreateParams>();
    expectTypeOf(
      toOpenAIToolMessage("call_1", result),
    ).toExtend<OpenAI.Chat.Completions.ChatCompletionToolMessageParam>();
  });
});

describe("OpenAI Responses API", () => {
  it("takes toOpenAIResponsesRequest's fields and toOpenAIResponsesToolOutput's item", () => {
    const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: "gpt-4.1",
      input: [{ role: "user", content: "hi" }, toOpenAIResponsesToolOutput("call_1", result)],
      ...toOpenAIResponsesRequest(session),
    };
    expectTypeOf(params).toExtend<OpenAI.Responses.ResponseCreateParams>();
    expectTypeOf(toOpenAIResponsesRequest(session).tools).toExtend<OpenAI.Responses.FunctionTool[]>();
    expectTypeOf(
      toOpenAIResponsesToolOutput("call_1", result),
    ).toExtend<OpenAI.Responses.ResponseInputItem>();
  });
});

describe("Anthropic Messages", () => {
  it("takes toAnthropicRequest's fields and toAnthropicToolResult's block", () => {
    const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [
        { role: "user", content: "hi" },
        { role: "user", content: [toAnthropicToolResult("toolu_1", result)] },
      ],
      ...toAnthropicRequest(session),
    };
    expectTypeOf(params).toExtend<Anthropic.Messages.MessageCreateParams>();
    expectTypeOf(toAnthropicRequest(session, { strict: true }).tools).toExtend<
      NonNullable<Anthropic.Messages.MessageCreateParams["tools"]>
    >();
    expectTypeOf(
      toAnthropicToolResult("toolu_1", result),
    ).toExtend<Anthropic.Messages.ToolResultBlockParam>();
  });
});

describe("Gemini generateContent", () => {
  it("takes toGeminiRequest's fields with the SDK's enum as modes", () => {
    const { tools, toolConfig } = toGeminiRequest(session, enumModes);
    const params: GenerateContentParameters = {
      model: "gemini-2.5-flash",
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "user", parts: [toGeminiFunctionResponse("read_file", result, { id: undefined })] },
      ],
      config: { tools, toolConfig },
    };
    expectTypeOf(params.config).toExtend<GenerateContentConfig | undefined>();
    expectTypeOf(toGeminiFunctionResponse("read_file", result)).toExtend<Part>();
  });

  it("gives plain strings without modes, which the SDK's enum type does not accept", () => {
    const request = toGeminiRequest(session);
    expectTypeOf(request.toolConfig.functionCallingConfig.mode).toEqualTypeOf<GeminiMode>();
    expectTypeOf(request.toolConfig).not.toExtend<GenerateContentConfig["toolConfig"]>();
    expectTypeOf(request.tools).toExtend<GenerateContentConfig["tools"]>();
  });
});
