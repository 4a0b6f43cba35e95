import type { ToolResultContent } from "@tooldock/sdk";

/**
 * A block other than text as one line: its type, what it holds and how big (not escaped).
 * `[image image/png, 120 base64 chars]`, `[resource link report: file:///r.md (text/markdown)]`,
 * `[resource file:///a.txt (text/plain), 12 characters]`.
 */
export function blockPlaceholder(block: Exclude<ToolResultContent, { type: "text" }>): string {
  const type = (mimeType: string | undefined) => (mimeType === undefined ? "" : ` (${mimeType})`);
  switch (block.type) {
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${block.data.length} base64 chars]`;
    case "resource_link":
      return `[resource link ${block.name}: ${block.uri}${type(block.mimeType)}]`;
    case "resource": {
      const { resource } = block;
      const size =
        "text" in resource ? `${resource.text.length} characters` : `${resource.blob.length} base64 chars`;
      return `[resource ${resource.uri}${type(resource.mimeType)}, ${size}]`;
    }
  }
}
