import type { AgentToolResult } from "@tooldock/sdk";
import { toolCallMessages } from "./tool-call-messages.js";

/** Passes a well-formed result on; anything else becomes an error result naming the problem. */
export function checkResult(name: string, value: unknown): AgentToolResult {
  const problem = findProblem(value);
  if (problem === undefined) return value as AgentToolResult;
  return {
    content: [{ type: "text", text: toolCallMessages.malformedResult(name, problem) }],
    isError: true,
  };
}

function findProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `expected an object with a content array, got ${describeKind(value)}`;
  }
  const { content, isError } = value as { content?: unknown; isError?: unknown };
  if (!Array.isArray(content)) return `content must be an array of blocks, got ${describeKind(content)}`;
  const index = content.findIndex((block) => !isBlock(block));
  if (index !== -1) {
    return `content[${index}] is not a valid block (expected { type: "text", text } or { type: "image", data, mimeType })`;
  }
  if (isError !== undefined && typeof isError !== "boolean")
    return `isError must be a boolean, got ${describeKind(isError)}`;
  return undefined;
}

function isBlock(block: unknown): boolean {
  if (typeof block !== "object" || block === null) return false;
  const candidate = block as Record<string, unknown>;
  if (candidate.type === "text") return typeof candidate.text === "string";
  if (candidate.type === "image")
    return typeof candidate.data === "string" && typeof candidate.mimeType === "string";
  return false;
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
