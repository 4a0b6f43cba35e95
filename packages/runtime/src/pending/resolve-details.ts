import type { AgentToolResult } from "@tooldock/sdk";
import { copyBlock } from "../session/execute/read-result.js";
import { attempt } from "../util/attempt.js";
import { snapshotJson } from "./json-snapshot.js";
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
  /**
   * Set when the callback did not settle within its deadline: a timed-out `apply` left the
   * action pending; a timed-out `reject` still discarded it.
   */
  timedOut?: boolean;
  /**
   * Set when nothing ran because the action was staged by a tool in a tool host and this
   * session's handler of it runs in this process (`SessionOptions.isolatedActionsInProcess`):
   * the action is still pending. A host can add its own way to resolve it.
   */
  refusedInProcess?: true;
  [key: string]: unknown;
}

/** What {@link resolveDetails} adds after the callback's own keys. */
export interface ResolveExtra {
  error?: string;
  timedOut?: boolean;
  refusedInProcess?: true;
}

/**
 * Builds {@link ResolveDetails}; the resolve fields win over the callback's keys of the same
 * name. `callbackDetails` come from {@link readCallbackResult}, already a JSON copy.
 */
export function resolveDetails(
  action: "apply" | "discard",
  reason: string,
  record: PendingActionRecord,
  callbackDetails: unknown,
  extra: ResolveExtra = {},
): ResolveDetails {
  const own =
    callbackDetails === undefined
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

/** What `resolve` uses of a value an `apply` or `reject` callback returned. */
export interface CallbackResult {
  /** The content when it is a non-empty array of valid blocks (copied), else undefined. */
  content: AgentToolResult["content"] | undefined;
  /** A JSON copy of `details`; undefined when missing or not serialisable. */
  details: unknown;
  isError: boolean;
  /** The text of the content blocks, joined, when there is any. */
  text: string | undefined;
}

/**
 * Reads a callback's result once, field by field, into fresh values; never throws. A missing
 * or odd result, a malformed block, a throwing getter or proxy trap, or `details` that are
 * not JSON all read as absent, so the caller uses its default text: a malformed result must
 * not turn an apply that already happened into a failure, nor the details of the resolve
 * itself into something the session drops.
 */
export function readCallbackResult(result: unknown): CallbackResult {
  const read: CallbackResult = { content: undefined, details: undefined, isError: false, text: undefined };
  if (typeof result !== "object" || result === null) return read;
  const source = result as Record<string, unknown>;
  read.isError = attempt(() => source.isError) === true;
  read.content = copyContent(attempt(() => source.content));
  const details = snapshotJson(attempt(() => source.details));
  if (details.ok) read.details = details.value;
  const text = read.content
    ?.flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
  read.text = text === "" ? undefined : text;
  return read;
}

function copyContent(content: unknown): AgentToolResult["content"] | undefined {
  try {
    if (!Array.isArray(content) || content.length === 0) return undefined;
    const blocks: AgentToolResult["content"] = [];
    for (let index = 0; index < content.length; index++) {
      const block = copyBlock(content[index]);
      if (block === undefined) return undefined;
      blocks.push(block);
    }
    return blocks;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A resolve's `isError` answer: `text` for the model, the action's details. */
export function resolveError(
  action: "apply" | "discard",
  text: string,
  reason: string,
  record: PendingActionRecord,
  extra: ResolveExtra = {},
): AgentToolResult<ResolveDetails> {
  return {
    content: [{ type: "text", text }],
    details: resolveDetails(action, reason, record, undefined, extra),
    isError: true,
  };
}
