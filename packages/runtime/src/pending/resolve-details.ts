import type { AgentToolResult } from "@tooldock/sdk";
import { assertJsonSerializable } from "../session/execute/check-json.js";
import type { PendingActionRecord } from "./pending-action-record.js";

/** `details` of every `resolve` result: who was resolved and how, plus the callback's details. */
export interface ResolveDetails {
  action: "apply" | "discard";
  reason: string;
  id: string;
  label: string;
  sourceToolName: string;
  /** A callback's details that are not a plain object ride here; plain objects are spread in. */
  details?: unknown;
  /** Set on a failed apply or a failed discard cleanup: the cause, described. */
  error?: string;
  [key: string]: unknown;
}

/**
 * Builds {@link ResolveDetails}; the resolve fields win over the callback's keys of the same
 * name. Callback details that cannot be serialised to JSON are left out: a session drops a
 * result's whole `details` when they cannot, and the resolve fields must survive.
 */
export function resolveDetails(
  action: "apply" | "discard",
  reason: string,
  record: PendingActionRecord,
  callbackDetails: unknown,
  extra: { error?: string } = {},
): ResolveDetails {
  const own =
    callbackDetails === undefined || !isJson(callbackDetails)
      ? {}
      : isPlainObject(callbackDetails)
        ? callbackDetails
        : { details: callbackDetails };
  return {
    ...own,
    action,
    reason,
    id: record.id,
    label: record.label,
    sourceToolName: record.sourceToolName,
    ...extra,
  };
}

/**
 * The content of a callback's result when it is a non-empty array of valid blocks, else
 * undefined (the caller then uses its default text): a malformed block must not turn an
 * apply that already happened into a malformed, `isError` resolve result.
 */
export function contentOf(result: AgentToolResult | undefined): AgentToolResult["content"] | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const { content } = result as { content?: unknown };
  return Array.isArray(content) && content.length > 0 && content.every(isBlock)
    ? (content as AgentToolResult["content"])
    : undefined;
}

function isBlock(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const block = value as Record<string, unknown>;
  if (block.type === "text") return typeof block.text === "string";
  return block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string";
}

/** The details of a callback's result, tolerating a missing or odd result. */
export function detailsOf(result: AgentToolResult | undefined): unknown {
  return typeof result === "object" && result !== null ? result.details : undefined;
}

function isJson(value: unknown): boolean {
  try {
    assertJsonSerializable(value);
    return true;
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
