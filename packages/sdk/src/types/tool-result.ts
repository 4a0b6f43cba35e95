/** A text block in a tool result. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image block in a tool result; `data` is base64. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** One block of a tool result's content. */
export type ToolResultContent = TextContent | ImageContent;

/**
 * What a tool's `execute` resolves to and what the model reads.
 *
 * `details` is for the host (UI, logs, tests) and is never sent to the model by Tooldock.
 * `structuredContent` is the result as a JSON object, for clients that read data rather than
 * text (MCP's `structuredContent`); a tool that declares an `outputSchema` must return it,
 * matching. Put the same data in `content` as text too: the provider adapters send only
 * `content` to the model.
 */
export interface AgentToolResult<TDetails = unknown> {
  content: ToolResultContent[];
  details?: TDetails;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}
