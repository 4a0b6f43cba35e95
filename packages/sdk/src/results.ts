import type { AgentToolResult } from "./types/tool-result.js";

/**
 * A successful result with one text block.
 *
 * @example
 * ```ts
 * return textResult("Renamed 3 files", { renamed: 3 });
 * ```
 */
export function textResult<TDetails = undefined>(
  text: string,
  details?: TDetails,
): AgentToolResult<TDetails> {
  const result: AgentToolResult<TDetails> = { content: [{ type: "text", text }] };
  if (details !== undefined) result.details = details;
  return result;
}

/**
 * An error result (`isError: true`) with one text block. Say what went wrong and what the
 * model should do instead.
 */
export function errorResult<TDetails = undefined>(
  message: string,
  details?: TDetails,
): AgentToolResult<TDetails> {
  const result: AgentToolResult<TDetails> = { content: [{ type: "text", text: message }], isError: true };
  if (details !== undefined) result.details = details;
  return result;
}
