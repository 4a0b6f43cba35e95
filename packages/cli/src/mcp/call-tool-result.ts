import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentToolResult } from "@tooldock/sdk";

/**
 * Turns a Tooldock result into an MCP `tools/call` result, appending `notes` (the pending
 * action reminders) as text blocks after the tool's own content. `details` stays on the
 * host side, as everywhere in Tooldock: it is not sent to the model.
 */
export function toCallToolResult(result: AgentToolResult, notes: readonly string[] = []): CallToolResult {
  const content: CallToolResult["content"] = result.content.map((block) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "image", data: block.data, mimeType: block.mimeType },
  );
  for (const note of notes) content.push({ type: "text", text: note });
  return result.isError ? { content, isError: true } : { content };
}
