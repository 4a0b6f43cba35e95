import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentToolResult } from "@tooldock/sdk";

/**
 * Turns a Tooldock result into an MCP `tools/call` result, appending `notes` (the pending
 * action reminders) as text blocks after the tool's own content. `details` stays on the
 * host side, as everywhere in Tooldock: it is not sent to the model. `structuredContent`
 * (already checked against the tool's `outputSchema` by the session) is passed on; when the
 * tool gave no content with it, its JSON becomes the one text block, as MCP asks of a server
 * for clients that read only text.
 */
export function toCallToolResult(result: AgentToolResult, notes: readonly string[] = []): CallToolResult {
  const content: CallToolResult["content"] = result.content.map((block) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "image", data: block.data, mimeType: block.mimeType },
  );
  const structured = result.structuredContent;
  if (structured !== undefined && content.length === 0)
    content.push({ type: "text", text: JSON.stringify(structured) });
  for (const note of notes) content.push({ type: "text", text: note });
  const answer: CallToolResult = { content };
  if (structured !== undefined) answer.structuredContent = structured;
  if (result.isError) answer.isError = true;
  return answer;
}
