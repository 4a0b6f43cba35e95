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

/** An audio block in a tool result; `data` is base64 (MCP's `audio` content). */
export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
}

/**
 * A link to a resource the model or client may read (MCP's `resource_link`): it carries no
 * content, only where to find it.
 */
export interface ResourceLinkContent {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A resource's contents: text, or base64 `blob` data. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

/** A resource embedded in the result with its contents (MCP's `resource` content). */
export interface EmbeddedResourceContent {
  type: "resource";
  resource: ResourceContents;
}

/**
 * One block of a tool result's content: the content types of MCP's `tools/call` results. The
 * provider adapters send what each API carries and a note or the text for the rest (see the
 * runtime's README).
 */
export type ToolResultContent =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLinkContent
  | EmbeddedResourceContent;

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
