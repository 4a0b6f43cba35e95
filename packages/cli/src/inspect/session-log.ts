import type { SessionEvent } from "@tooldock/runtime";
import { quoted } from "@tooldock/runtime/internal";
import type { AgentToolResult } from "@tooldock/sdk";
import { messageOf as plainMessageOf } from "../mcp/message-of.js";
import { blockPlaceholder } from "../output/block-placeholder.js";
import type { LogKind } from "./inspect-protocol.js";

/** Longest `detail` of a log entry, in characters; the page has the whole result elsewhere. */
const MAX_DETAIL = 4_000;

/** One event log line, before the hub numbers and dates it. */
export interface LogLine {
  kind: LogKind;
  summary: string;
  detail?: string;
}

/**
 * The log line of a session event, or `undefined` for events the log leaves out. Its texts are
 * whole: the event hub cuts every line once, and says how much it left out.
 */
export function logLineOf(event: SessionEvent): LogLine | undefined {
  switch (event.type) {
    case "tool-call-start":
      return {
        kind: "call",
        summary: `call ${event.name} (${event.toolCallId})`,
        detail: json(event.params),
      };
    case "tool-call-end": {
      const outcome = event.result.isError === true ? "error" : "ok";
      return {
        kind: "result",
        summary: `${event.name} returned ${outcome} (${event.toolCallId})`,
        detail: resultText(event.result),
      };
    }
    case "action-pending":
      return {
        kind: "push",
        summary: `staged ${quoted(event.record.label)} (from ${event.record.sourceToolName})`,
        detail: json(event.record.details),
      };
    case "action-applied":
      return {
        kind: "resolution",
        summary: `applied ${quoted(event.record.label)}`,
        detail: resultText(event.result),
      };
    case "action-apply-failed":
      return {
        kind: "resolution",
        summary: `apply failed for ${quoted(event.record.label)}; it stays pending`,
        detail: plainMessageOf(event.error),
      };
    case "action-discarded":
      return { kind: "resolution", summary: `discarded ${quoted(event.record.label)}`, detail: event.reason };
    case "action-settled-late":
      return {
        kind: "fault",
        summary: `the ${event.callback} of ${quoted(event.record.label)} settled after its deadline (${event.outcome}); nothing changed`,
      };
    case "reminder":
      return {
        kind: "reminder",
        summary: `reminder: ${quoted(event.record.label)} is pending`,
        detail: event.text,
      };
    case "tool-hook-failed":
      return {
        kind: "warning",
        summary: `${event.toolName}: onSession(${event.event.reason}) failed`,
        detail: plainMessageOf(event.error),
      };
    case "tool-warning":
      return {
        kind: "warning",
        summary: `${event.code} ${event.toolName}`,
        detail: `${event.message}\n${event.hint}`,
      };
    case "tool-unregistered":
      return { kind: "reload", summary: `unregistered ${event.toolName} (${event.origin})` };
    case "tool-call-fault":
      return {
        kind: "fault",
        summary: `${event.name}: ${event.fault} (${event.toolCallId})`,
        ...(event.error === undefined ? {} : { detail: plainMessageOf(event.error) }),
      };
    default:
      return undefined;
  }
}

/** A result's text blocks (others as their placeholder), whole: the event hub cuts log lines. */
export function resultText(result: AgentToolResult): string {
  return (result.content ?? [])
    .map((block) => (block.type === "text" ? block.text : blockPlaceholder(block)))
    .join("\n");
}

/** The message of anything thrown (the MCP server's {@link plainMessageOf}), cut at {@link MAX_DETAIL}; never throws. */
export function messageOf(error: unknown): string {
  return cut(plainMessageOf(error));
}

function json(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    // `undefined` for a function or a symbol, which JSON cannot carry either.
    return JSON.stringify(value, null, 2) ?? "(not JSON)";
  } catch {
    return "(not JSON)";
  }
}

/** `text` cut at `max` characters (default {@link MAX_DETAIL}), saying how many were left out. */
export function cut(text: string, max = MAX_DETAIL): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more]`;
}
