import type { AgentToolResult, ToolResultContent } from "@tooldock/sdk";
import type { Colors } from "./colors.js";
import { escapeTerminalText } from "./terminal-text.js";

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

/**
 * A tool result's content as indented lines, control sequences escaped; other blocks become a
 * one-line placeholder (an embedded text resource: its placeholder, then its text).
 */
export function formatResultContent(result: AgentToolResult, colors: Colors, indent = "  "): string[] {
  const text = (value: string) => escapeTerminalText(value, { multiline: true }).split("\n");
  const lines = result.content.flatMap((block) => {
    if (block.type === "text") return text(block.text);
    const placeholder = colors.dim(escapeTerminalText(blockPlaceholder(block)));
    return block.type === "resource" && "text" in block.resource
      ? [placeholder, ...text(block.resource.text)]
      : [placeholder];
  });
  const painted = result.isError ? lines.map((line) => colors.red(line)) : lines;
  return (painted.length > 0 ? painted : [colors.dim("(no content)")]).map((line) => `${indent}${line}`);
}

/** `✔ heading` or `✖ heading (error)` followed by the content; `heading` is printed as given. */
export function formatResult(heading: string, result: AgentToolResult, colors: Colors): string[] {
  const mark = result.isError ? colors.red("✖") : colors.green("✔");
  return [
    `${mark} ${colors.bold(heading)}${result.isError ? colors.red(" (error)") : ""}`,
    ...formatResultContent(result, colors),
  ];
}
