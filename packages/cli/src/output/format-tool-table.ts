import { displayPath } from "../report/diagnostic-text.js";
import type { ToolEntry } from "../report/report-types.js";
import type { Colors } from "./colors.js";
import { formatTable } from "./table.js";
import { escapeTerminalText } from "./terminal-text.js";

const countParameters = (schema: Record<string, unknown>) =>
  Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}).length;

/** The aligned table of tools `list`, `validate` and `demo` print; control sequences in cells escaped. */
export function formatToolTable(tools: readonly ToolEntry[], colors: Colors, cwd: string): string[] {
  if (tools.length === 0) return [colors.dim("No tools loaded.")];
  const flags = (tool: ToolEntry) =>
    [tool.deferrable ? "deferrable" : "", tool.hidden ? "hidden" : ""].filter(Boolean).join(",");
  return formatTable(
    tools,
    [
      {
        header: "TOOL",
        value: (tool) => escapeTerminalText(tool.name),
        style: (text) => colors.bold(text),
        maxWidth: 36,
      },
      { header: "LABEL", value: (tool) => escapeTerminalText(tool.label), maxWidth: 28 },
      { header: "PARAMS", value: (tool) => String(countParameters(tool.parameters)) },
      { header: "FLAGS", value: flags, style: (text) => colors.magenta(text) },
      {
        header: "MODULE",
        value: (tool) => escapeTerminalText(displayPath(tool.path, cwd)),
        style: (text) => colors.dim(text),
      },
    ],
    (text) => colors.dim(text),
  );
}
