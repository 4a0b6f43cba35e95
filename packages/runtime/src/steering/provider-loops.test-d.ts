// The provider loops of the runtime README's "Provider adapters" section, compiled by the
// type check so they cannot rot. Keep each function in step with its README snippet.
import type Anthropic from "@anthropic-ai/sdk";
import { type Content, FunctionCallingConfigMode, type GoogleGenAI, type Part } from "@google/genai";
import type OpenAI from "openai";
import { describe, expectTypeOf, it } from "vitest";
import type { Session } from "../session/session.js";
import { toAnthropicRequest } from "./anthropic-request.js";
import { toAnthropicToolResult } from "./anthropic-tool-result.js";
import { toGeminiFunctionResponse } from "./gemini-function-response.js";
import { toGeminiRequest } from "./gemini-request.js";
import { toOpenAIRequest } from "./openai-request.js";
import { toOpenAIResponsesRequest } from "./openai-responses-request.js";
import { toOpenAIResponsesToolOutput, toOpenAIToolMessage } from "./openai-tool-result.js";

// README: OpenAI Chat Completions
async function chatCompletionsTurn(
  openai: OpenAI,
  session: Session,
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
) {
  const completion = await openai.chat.completions.create({
    model: "gpt-4.1",
    messages,
    ...toOpenAIRequest(session),
  });
  const message = completion.choices[0]?.message;
  if (!message) return;
  messages.push(message);
  for (const call of message.tool_calls ?? []) {
    if (call.type !== "function") continue;
    const params = JSON.parse(call.function.arguments);
    const result = await session.execute({ toolCallId: call.id, name: call.function.name, params });
    messages.push(toOpenAIToolMessage(call.id, result));
  }
}

// README: OpenAI Responses API
async function responsesTurn(openai: OpenAI, session: Session, input: OpenAI.Responses.ResponseInputItem[]) {
  const response = await openai.responses.create({
    model: "gpt-4.1",
    input,
    ...toOpenAIResponsesRequest(session),
  });
  for (const item of response.output) {
    if (item.type !== "function_call") continue;
    const params = JSON.parse(item.arguments);
    const result = await session.execute({ toolCallId: item.call_id, name: item.name, params });
    input.push(item, toOpenAIResponsesToolOutput(item.call_id, result));
  }
}

// README: Anthropic Messages
async function anthropicTurn(anthropic: Anthropic, session: Session, messages: Anthropic.MessageParam[]) {
  const response = await anthropic.messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages,
    ...toAnthropicRequest(session),
  });
  messages.push({ role: "assistant", content: response.content });
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const block of response.content) {
    if (block.type !== "tool_use") continue;
    const result = await session.execute({ toolCallId: block.id, name: block.name, params: block.input });
    results.push(toAnthropicToolResult(block.id, result));
  }
  if (results.length > 0) messages.push({ role: "user", content: results });
}

// README: Gemini
async function geminiTurn(ai: GoogleGenAI, session: Session, contents: Content[]) {
  const { tools, toolConfig } = toGeminiRequest(session, FunctionCallingConfigMode);
  const response = await ai.models.generateContent({
    model: "gemini-2.5-flash",
    contents,
    config: { tools, toolConfig },
  });
  const reply = response.candidates?.[0]?.content;
  if (reply) contents.push(reply);
  const parts: Part[] = [];
  for (const call of response.functionCalls ?? []) {
    const name = call.name ?? "";
    const result = await session.execute({ toolCallId: call.id ?? name, name, params: call.args ?? {} });
    parts.push(toGeminiFunctionResponse(name, result, { id: call.id }));
  }
  if (parts.length > 0) contents.push({ role: "user", parts });
}

describe("the README's provider loops", () => {
  it("compile against the official SDKs", () => {
    expectTypeOf(chatCompletionsTurn).parameter(0).toEqualTypeOf<OpenAI>();
    expectTypeOf(responsesTurn).parameter(0).toEqualTypeOf<OpenAI>();
    expectTypeOf(anthropicTurn).parameter(0).toEqualTypeOf<Anthropic>();
    expectTypeOf(geminiTurn).parameter(0).toEqualTypeOf<GoogleGenAI>();
  });
});
