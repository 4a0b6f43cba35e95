import type Anthropic from "@anthropic-ai/sdk";
import type { FunctionCallingConfigMode, Tool as GeminiTool } from "@google/genai";
import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "../session/session.js";
import type { SessionOptions } from "../session/session-options.js";
import { toAnthropicRequest } from "./anthropic-request.js";
import { toGeminiRequest } from "./gemini-request.js";
import { toOpenAIRequest } from "./openai-request.js";

const readSchema = {
  type: "object",
  required: ["path"],
  properties: { path: { type: "string", description: "File to read" } },
};

function makeSession(options: SessionOptions = {}) {
  const session = new Session(options);
  session.register({
    name: "read_file",
    label: "Read",
    description: "Reads a file",
    parameters: Type.Object({ path: Type.String({ description: "File to read" }) }),
    execute: async () => textResult("contents"),
  });
  session.register({
    name: "count",
    label: "Count",
    description: "Counts",
    parameters: z.object({ n: z.number() }),
    execute: async () => textResult("1"),
  });
  session.register({
    name: "internal",
    label: "Internal",
    description: "Not for the model",
    hidden: true,
    parameters: Type.Object({}),
    execute: async () => textResult("x"),
  });
  return session;
}

function stage(session: Session) {
  session.pending.push({ label: "Write a.txt", apply: async () => textResult("ok") });
}

describe("toAnthropicRequest", () => {
  it("lists the active tools with input_schema and maps the configured choice", () => {
    const request = toAnthropicRequest(makeSession());
    const tools: Anthropic.Messages.MessageCreateParams["tools"] = request.tools;
    const choice: Anthropic.Messages.MessageCreateParams["tool_choice"] = request.tool_choice;
    expect(tools).toEqual([
      { name: "read_file", description: "Reads a file", input_schema: readSchema },
      {
        name: "count",
        description: "Counts",
        input_schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      },
    ]);
    expect(choice).toEqual({ type: "auto" });
  });

  it.each([
    ["auto", { type: "auto" }],
    ["none", { type: "none" }],
    ["required", { type: "any" }],
    [
      { type: "tool", name: "count" },
      { type: "tool", name: "count" },
    ],
  ] as const)("maps %j", (toolChoice, expected) => {
    expect(toAnthropicRequest(makeSession({ toolChoice })).tool_choice).toEqual(expected);
  });

  it("with strict: true, sends each tool that can go strict rewritten and marked, the others as they are", () => {
    const session = makeSession();
    session.register({
      name: "pairs",
      label: "Pairs",
      description: "A tuple: no strict form",
      parameters: z.object({ pair: z.tuple([z.number(), z.number()]) }),
      execute: async () => textResult("1"),
    });
    const tools: Anthropic.Messages.MessageCreateParams["tools"] = toAnthropicRequest(session, {
      strict: true,
    }).tools;
    expect(tools).toEqual([
      {
        name: "read_file",
        description: "Reads a file",
        input_schema: { ...readSchema, additionalProperties: false },
        strict: true,
      },
      {
        name: "count",
        description: "Counts",
        input_schema: {
          type: "object",
          properties: { n: { type: "number" } },
          required: ["n"],
          additionalProperties: false,
        },
        strict: true,
      },
      expect.objectContaining({ name: "pairs", strict: false }),
    ]);
    expect(tools?.[2]).toMatchObject({
      input_schema: { properties: { pair: { prefixItems: expect.any(Array) } } },
    });
  });

  it("forces resolve and offers it while an action is pending", () => {
    const session = makeSession({ toolChoice: "none" });
    stage(session);
    const request = toAnthropicRequest(session);
    expect(request.tool_choice).toEqual({ type: "tool", name: "resolve" });
    expect(request.tools.map((tool) => tool.name)).toEqual(["resolve", "read_file", "count"]);
    expect(request.tools[0]?.input_schema).toMatchObject({ type: "object", required: ["action", "reason"] });
  });
});

describe("toOpenAIRequest", () => {
  it("wraps each tool as a function and maps the configured choice", () => {
    const request = toOpenAIRequest(makeSession());
    const tools: OpenAI.Chat.Completions.ChatCompletionCreateParams["tools"] = request.tools;
    const choice: OpenAI.Chat.Completions.ChatCompletionCreateParams["tool_choice"] = request.tool_choice;
    expect(tools?.[0]).toEqual({
      type: "function",
      function: { name: "read_file", description: "Reads a file", parameters: readSchema },
    });
    expect(tools).toHaveLength(2);
    expect(choice).toBe("auto");
  });

  it.each([
    ["auto", "auto"],
    ["none", "none"],
    ["required", "required"],
    [
      { type: "tool", name: "count" },
      { type: "function", function: { name: "count" } },
    ],
  ] as const)("maps %j", (toolChoice, expected) => {
    expect(toOpenAIRequest(makeSession({ toolChoice })).tool_choice).toEqual(expected);
  });

  it("names resolve as the function to call while an action is pending", () => {
    const session = makeSession();
    stage(session);
    const request = toOpenAIRequest(session);
    expect(request.tool_choice).toEqual({ type: "function", function: { name: "resolve" } });
    expect(request.tools.map((tool) => tool.function.name)).toContain("resolve");
  });
});

describe("toGeminiRequest", () => {
  it("declares the functions with JSON Schema parameters and maps the configured choice", () => {
    const request = toGeminiRequest(makeSession());
    const tools: GeminiTool[] = request.tools;
    const mode: `${FunctionCallingConfigMode}` = request.toolConfig.functionCallingConfig.mode;
    expect(tools).toEqual([
      {
        functionDeclarations: [
          { name: "read_file", description: "Reads a file", parametersJsonSchema: readSchema },
          {
            name: "count",
            description: "Counts",
            parametersJsonSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          },
        ],
      },
    ]);
    expect(mode).toBe("AUTO");
  });

  it("rewrites each schema into Gemini's subset: oneOf as anyOf, const as enum, the rest described", () => {
    const session = new Session();
    session.register({
      name: "shape",
      label: "Shape",
      description: "A discriminated union",
      parameters: z.object({
        shape: z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("circle"), radius: z.number().positive() }),
          z.object({ kind: z.literal("square"), side: z.number() }),
        ]),
      }),
      execute: async () => textResult("1"),
    });
    const [declaration] = toGeminiRequest(session).tools[0].functionDeclarations;
    expect(declaration?.parametersJsonSchema.properties).toEqual({
      shape: {
        anyOf: [
          {
            type: "object",
            properties: {
              kind: { type: "string", enum: ["circle"] },
              radius: { type: "number", description: "{exclusiveMinimum: 0}" },
            },
            required: ["kind", "radius"],
          },
          {
            type: "object",
            properties: { kind: { type: "string", enum: ["square"] }, side: { type: "number" } },
            required: ["kind", "side"],
          },
        ],
      },
    });
  });

  it.each([
    ["auto", { mode: "AUTO" }],
    ["none", { mode: "NONE" }],
    ["required", { mode: "ANY" }],
    [
      { type: "tool", name: "count" },
      { mode: "ANY", allowedFunctionNames: ["count"] },
    ],
  ] as const)("maps %j", (toolChoice, expected) => {
    expect(toGeminiRequest(makeSession({ toolChoice })).toolConfig.functionCallingConfig).toEqual(expected);
  });

  it("takes each mode's value from the modes given (the SDK's FunctionCallingConfigMode enum)", () => {
    const modes = { AUTO: "auto-value", ANY: "any-value", NONE: "none-value" } as const;
    expect(toGeminiRequest(makeSession(), modes).toolConfig.functionCallingConfig).toEqual({
      mode: "auto-value",
    });
    expect(
      toGeminiRequest(makeSession({ toolChoice: "none" }), modes).toolConfig.functionCallingConfig,
    ).toEqual({
      mode: "none-value",
    });
    const session = makeSession();
    stage(session);
    expect(toGeminiRequest(session, modes).toolConfig.functionCallingConfig).toEqual({
      mode: "any-value",
      allowedFunctionNames: ["resolve"],
    });
  });

  it("allows only resolve, in mode ANY, while an action is pending", () => {
    const session = makeSession();
    stage(session);
    const request = toGeminiRequest(session);
    expect(request.toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["resolve"] },
    });
    expect(request.tools[0].functionDeclarations.map((declaration) => declaration.name)).toEqual([
      "resolve",
      "read_file",
      "count",
    ]);
  });
});
