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
 */
export interface AgentToolResult<TDetails = unknown> {
  content: ToolResultContent[];
  details?: TDetails;
  isError?: boolean;
}
