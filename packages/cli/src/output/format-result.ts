import type { AgentToolResult } from "@tooldock/sdk";
import { blockPlaceholder } from "./block-placeholder.js";
import type { Colors } from "./colors.js";
import { escapeTerminalText } from "./terminal-text.js";

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
