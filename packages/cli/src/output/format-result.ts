import type { AgentToolResult } from "@tooldock/sdk";
import type { Colors } from "./colors.js";
import { escapeTerminalText } from "./terminal-text.js";

/**
 * A tool result's content as indented lines, control sequences escaped; images become a
 * one-line placeholder.
 */
export function formatResultContent(result: AgentToolResult, colors: Colors, indent = "  "): string[] {
  const lines = result.content.flatMap((block) =>
    block.type === "text"
      ? escapeTerminalText(block.text, { multiline: true }).split("\n")
      : [colors.dim(`[image ${escapeTerminalText(block.mimeType)}, ${block.data.length} base64 chars]`)],
  );
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
