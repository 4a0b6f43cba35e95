// The host loops of the runtime README ("Usage" and "Provider adapters"), compiled by the
// type check against the official SDKs so they cannot rot. The README shows the regions
// below as they are (`scripts/readme-snippets.test.ts` compares them; `pnpm docs:snippets`
// copies them). Each loop appends the reminders its calls produced after the tool results.
import type Anthropic from "@anthropic-ai/sdk";
import { type Content, FunctionCallingConfigMode, type GoogleGenAI, type Part } from "@google/genai";
import type OpenAI from "openai";
import { describe, expectTypeOf, it } from "vitest";
import { Session } from "../session/session.js";
import { toAnthropicRequest } from "./anthropic-request.js";
import { toAnthropicToolResult } from "./anthropic-tool-result.js";
import { toGeminiFunctionResponse } from "./gemini-function-response.js";
import { toGeminiRequest } from "./gemini-request.js";
import { toOpenAIRequest } from "./openai-request.js";
import { toOpenAIResponsesRequest } from "./openai-responses-request.js";
import { toOpenAIResponsesToolOutput, toOpenAIToolMessage } from "./openai-tool-result.js";

type Tool = Parameters<Session["register"]>[0];

// README: Usage (a whole Anthropic conversation)
async function usage(anthropic: Anthropic, myTool: Tool, messages: Anthropic.MessageParam[]) {
  // #region usage
  const session = new Session({ cwd: process.cwd() });
  session.register(myTool, "tools/my-tool.ts"); // the origin shows up in name-conflict errors
  // The reminder of an action a call staged comes after that call's `tool-call-end` (with its
  // toolCallId): keep it and send it after the tool results, never between a call and its result.
  const reminders: string[] = [];
  session.subscribe((event) => {
    if (event.type === "reminder") reminders.push(event.text);
  });
  await session.start();

  for (let turn = 0; turn < 20; turn++) {
    // Built from the session every turn: tool_choice forces `resolve` while something is pending.
    const response = await anthropic.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages,
      ...toAnthropicRequest(session),
    });
    messages.push({ role: "assistant", content: response.content });
    const content: Anthropic.ContentBlockParam[] = [];
    for (const block of response.content) {
      if (block.type !== "tool_use") continue;
      const result = await session.execute({ toolCallId: block.id, name: block.name, params: block.input });
      content.push(toAnthropicToolResult(block.id, result)); // result.isError maps to is_error
    }
    if (content.length === 0) break; // the model answered: the turn is over
    // the tool results first, then the reminders as text, in the same user message
    for (const text of reminders.splice(0)) content.push({ type: "text", text });
    messages.push({ role: "user", content });
  }

  await session.dispose(); // discards what is still pending; tools get { reason: "shutdown" }
  // #endregion usage
}

// README: OpenAI Chat Completions
async function chatCompletionsTurn(
  openai: OpenAI,
  session: Session,
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  reminders: string[],
) {
  // #region chat-completions
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
  // after all of the turn's tool messages
  for (const text of reminders.splice(0)) messages.push({ role: "user", content: text });
  // #endregion chat-completions
}

// README: OpenAI Responses API
async function responsesTurn(
  openai: OpenAI,
  session: Session,
  input: OpenAI.Responses.ResponseInputItem[],
  reminders: string[],
) {
  // #region responses
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
  // after all of the turn's function_call_output items
  for (const text of reminders.splice(0)) input.push({ role: "user", content: text });
  // #endregion responses
}

// README: Anthropic Messages
async function anthropicTurn(
  anthropic: Anthropic,
  session: Session,
  messages: Anthropic.MessageParam[],
  reminders: string[],
) {
  // #region anthropic
  const response = await anthropic.messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages,
    ...toAnthropicRequest(session),
  });
  messages.push({ role: "assistant", content: response.content });
  const content: Anthropic.ContentBlockParam[] = [];
  for (const block of response.content) {
    if (block.type !== "tool_use") continue;
    const result = await session.execute({ toolCallId: block.id, name: block.name, params: block.input });
    content.push(toAnthropicToolResult(block.id, result));
  }
  // the reminders after the tool_result blocks, in the same user message
  if (content.length > 0) for (const text of reminders.splice(0)) content.push({ type: "text", text });
  if (content.length > 0) messages.push({ role: "user", content });
  // #endregion anthropic
}

// README: Gemini
async function geminiTurn(ai: GoogleGenAI, session: Session, contents: Content[], reminders: string[]) {
  // #region gemini
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
  // the reminders as text parts after the functionResponse parts
  if (parts.length > 0) for (const text of reminders.splice(0)) parts.push({ text });
  if (parts.length > 0) contents.push({ role: "user", parts });
  // #endregion gemini
}

describe("the README's host loops", () => {
  it("compile against the official SDKs", () => {
    expectTypeOf(usage).parameter(0).toEqualTypeOf<Anthropic>();
    expectTypeOf(chatCompletionsTurn).parameter(0).toEqualTypeOf<OpenAI>();
    expectTypeOf(responsesTurn).parameter(0).toEqualTypeOf<OpenAI>();
    expectTypeOf(anthropicTurn).parameter(0).toEqualTypeOf<Anthropic>();
    expectTypeOf(geminiTurn).parameter(0).toEqualTypeOf<GoogleGenAI>();
  });
});
