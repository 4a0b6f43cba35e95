import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "../session/session.js";
import type { SessionOptions } from "../session/session-options.js";
import { toOpenAIResponsesRequest } from "./openai-responses-request.js";

function makeSession(options: SessionOptions = {}) {
  const session = new Session(options);
  session.register({
    name: "read_file",
    label: "Read",
    description: "Reads a file",
    parameters: Type.Object({ path: Type.String() }, { additionalProperties: false }),
    execute: async () => textResult("contents"),
  });
  session.register({
    name: "search",
    label: "Search",
    description: "Searches",
    parameters: z.object({ query: z.string(), limit: z.number().optional() }),
    execute: async () => textResult("1"),
  });
  return session;
}

describe("toOpenAIResponsesRequest", () => {
  it("gives flat function tools, strict exactly where the schema qualifies", () => {
    const request = toOpenAIResponsesRequest(makeSession());
    expect(request.tools).toEqual([
      {
        type: "function",
        name: "read_file",
        description: "Reads a file",
        parameters: {
          type: "object",
          properties: { path: { type: "string" } },
          required: ["path"],
          additionalProperties: false,
        },
        strict: true,
      },
      expect.objectContaining({ type: "function", name: "search", strict: false }),
    ]);
    expect(request.tool_choice).toBe("auto");
  });

  it.each([
    ["auto", "auto"],
    ["none", "none"],
    ["required", "required"],
    [
      { type: "tool", name: "search" },
      { type: "function", name: "search" },
    ],
  ] as const)("maps %j", (toolChoice, expected) => {
    expect(toOpenAIResponsesRequest(makeSession({ toolChoice })).tool_choice).toEqual(expected);
  });

  it("names resolve, a strict tool, while an action is pending", () => {
    const session = makeSession();
    session.pending.push({ label: "Write a.txt", apply: async () => textResult("ok") });
    const request = toOpenAIResponsesRequest(session);
    expect(request.tool_choice).toEqual({ type: "function", name: "resolve" });
    expect(request.tools[0]).toMatchObject({ name: "resolve", strict: true });
  });
});
