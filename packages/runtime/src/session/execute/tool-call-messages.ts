import type { PendingActionRecord } from "../../pending/pending-action-record.js";
import { RESOLVE_TOOL_NAME } from "../../pending/resolve-tool.js";
import { formatSchemaIssue, type SchemaIssue } from "../../schema/tool-schema.js";
import { count } from "../../util/count.js";
import { describeError } from "../../util/describe-error.js";
import { formatDuration } from "../../util/format-duration.js";
import { quoted } from "../../util/quoted.js";

/** Every message `execute` answers the model with when a call goes wrong. Each says what to do. */
export const toolCallMessages = {
  unknownTool(name: string, available: string[]): string {
    const list = available.length === 0 ? "none" : available.join(", ");
    return `Unknown tool "${name}". Available tools: ${list}. Call one of the available tools instead.`;
  },

  blockedByPending(name: string, pending: PendingActionRecord[]): string {
    const [top, ...rest] = pending;
    const more = rest.length === 0 ? "" : ` (and ${count(rest.length, "more pending action")} below it)`;
    return (
      `Cannot run "${name}" yet: the pending action ${quoted(top?.label ?? "")} is waiting${more}. ` +
      `Call \`${RESOLVE_TOOL_NAME}\` first to apply or discard it, then call "${name}" again if it is still needed.`
    );
  },

  invalidArguments(name: string, issues: SchemaIssue[]): string {
    const lines = issues.map((issue) => `- ${formatSchemaIssue(issue)}`);
    return [
      `Invalid arguments for tool "${name}":`,
      ...lines,
      "Fix the arguments to match the tool's parameters and call it again.",
    ].join("\n");
  },

  brokenSchema(name: string, error: unknown): string {
    return (
      `Tool "${name}" cannot check its arguments: ${describeError(error)}. ` +
      "This is a fault in the tool, not in your call; do not retry it, tell the user."
    );
  },

  /** `description` is what the tool threw, as `describeError` put it (read once, see `readToolCallError`). */
  threw(name: string, description: string): string {
    return (
      `Tool "${name}" failed: ${description.replace(/\.+$/, "")}. ` +
      "Check the arguments and the current state, then retry or try another approach."
    );
  },

  aborted(name: string, reason: unknown): string {
    const why = reason === undefined ? "" : ` (${describeError(reason)})`;
    return (
      `Tool "${name}" was aborted before it finished${why}. ` +
      "Its work may be partial: check the current state before calling it again."
    );
  },

  timedOut(name: string, timeoutMs: number): string {
    return (
      `Tool "${name}" timed out after ${formatDuration(timeoutMs)} without finishing and was stopped. ` +
      "Its work may be partial: check the current state, then call it again with a smaller task or try another approach."
    );
  },

  stoppedByDispose(name: string): string {
    return `Tool "${name}" was stopped before it finished because the session was disposed. Its work may be partial.`;
  },

  sessionDisposed(name: string): string {
    return (
      `Cannot run "${name}": this session was disposed and runs no more tool calls. ` +
      "Tell the user; the host has to start a new session."
    );
  },

  unreadableCall(name: string, problem: string): string {
    const which = name === "" ? "a tool" : `"${name}"`;
    return (
      `Cannot run ${which}: the host passed a call it could not read (${problem}). ` +
      "This is a fault in the host, not in your call; tell the user."
    );
  },

  internalFault(name: string, error: unknown): string {
    return (
      `Tool "${name}" could not be run: the session failed while handling the call (${describeError(error)}). ` +
      "Its work may be partial: check the current state, then tell the user if it happens again."
    );
  },

  truncated(omitted: number): string {
    return `\n… [truncated ${omitted} characters]`;
  },

  missingStructuredContent(name: string): string {
    return (
      `Tool "${name}" declares an outputSchema but returned no structuredContent. ` +
      "This is a fault in the tool, not in your call; do not retry the same call, try another way or tell the user."
    );
  },

  structuredContentMismatch(name: string, issues: SchemaIssue[]): string {
    return [
      `Tool "${name}" returned structuredContent that does not match its outputSchema:`,
      ...issues.map((issue) => `- ${formatSchemaIssue(issue)}`),
      "This is a fault in the tool, not in your call; do not retry the same call, try another way or tell the user.",
    ].join("\n");
  },

  brokenOutputSchema(name: string, error: unknown): string {
    return (
      `Tool "${name}" cannot check its structuredContent: ${describeError(error)}. ` +
      "This is a fault in the tool, not in your call; do not retry it, tell the user."
    );
  },

  malformedResult(name: string, problem: string): string {
    return (
      `Tool "${name}" returned a malformed result: ${problem}. ` +
      "This is a fault in the tool, not in your call; do not retry the same call, try another way or tell the user."
    );
  },
};
