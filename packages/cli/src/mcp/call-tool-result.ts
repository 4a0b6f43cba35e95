import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { truncateContent } from "@tooldock/runtime";
import type { AgentToolResult } from "@tooldock/sdk";

/**
 * Turns a Tooldock result into an MCP `tools/call` result, appending `notes` (the pending
 * action reminders) as text blocks after the tool's own content. `details` stays on the
 * host side, as everywhere in Tooldock: it is not sent to the model. `structuredContent`
 * (already checked against the tool's `outputSchema` by the session) is passed on; when the
 * tool gave no content with it, its JSON becomes the one text block, as MCP asks of a server
 * for clients that read only text. That block is cut at `maxResultChars` (the session's,
 * where text content is cut too) with the same `… [truncated N characters]` ending; the
 * `structuredContent` field stays whole.
 */
export function toCallToolResult(
  result: AgentToolResult,
  notes: readonly string[],
  maxResultChars: number,
): CallToolResult {
  // The session read each block into a fresh copy of its type's fields (MCP's content types).
  const content: CallToolResult["content"] = result.content.map((block) =>
    block.type === "resource" ? { type: "resource", resource: { ...block.resource } } : { ...block },
  );
  const structured = result.structuredContent;
  if (structured !== undefined && content.length === 0) {
    const json: AgentToolResult = { content: [{ type: "text", text: JSON.stringify(structured) }] };
    const [cut] = truncateContent(json, maxResultChars).content;
    if (cut?.type === "text") content.push({ type: "text", text: cut.text });
  }
  for (const note of notes) content.push({ type: "text", text: note });
  const answer: CallToolResult = { content };
  if (structured !== undefined) answer.structuredContent = structured;
  if (result.isError) answer.isError = true;
  return answer;
}
