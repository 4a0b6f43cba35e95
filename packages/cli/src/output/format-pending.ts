import type { PendingActionRecord, ToolChoice } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";
import type { Colors } from "./colors.js";
import { formatTable } from "./table.js";
import { escapeTerminalText } from "./terminal-text.js";

const MAX_PREVIEW_LINES = 40;

/** Unified diffs found in an action's details (`diff`, or `files[].diff`), uncoloured. */
export function actionDiffs(details: unknown): string[] {
  if (typeof details !== "object" || details === null) return [];
  const record = details as { diff?: unknown; files?: unknown };
  const diffs: string[] = [];
  if (typeof record.diff === "string") diffs.push(record.diff);
  if (Array.isArray(record.files)) {
    for (const file of record.files) if (typeof file?.diff === "string") diffs.push(file.diff);
  }
  return diffs;
}

/** Diffs as coloured lines (added green, removed red, the rest dim), at most 40 lines, control sequences escaped. */
export function formatDiffs(diffs: readonly string[], colors: Colors): string[] {
  const lines = diffs
    .flatMap((diff) => diff.trimEnd().split("\n"))
    .map((line) => escapeTerminalText(line, { multiline: true }))
    .map((line) =>
      line.startsWith("+") && !line.startsWith("+++")
        ? colors.green(line)
        : line.startsWith("-") && !line.startsWith("---")
          ? colors.red(line)
          : colors.dim(line),
    );
  if (lines.length <= MAX_PREVIEW_LINES) return lines;
  return [
    ...lines.slice(0, MAX_PREVIEW_LINES),
    colors.dim(`… ${count(lines.length - MAX_PREVIEW_LINES, "more line")}`),
  ];
}

/** The pending stack, top first, as a numbered table. */
export function formatPendingStack(records: readonly PendingActionRecord[], colors: Colors): string[] {
  if (records.length === 0) return [colors.dim("Pending actions: none")];
  const rows = records.map((record, index) => ({
    record,
    position: index === 0 ? "top" : String(index + 1),
  }));
  return [
    colors.bold(`Pending actions (${records.length}, top first; resolve takes the top):`),
    ...formatTable(
      rows,
      [
        { header: "#", value: (row) => row.position },
        { header: "ID", value: (row) => escapeTerminalText(row.record.id), maxWidth: 12 },
        {
          header: "LABEL",
          value: (row) => escapeTerminalText(row.record.label),
          style: (text) => colors.bold(text),
        },
        {
          header: "SOURCE",
          value: (row) => escapeTerminalText(row.record.sourceToolName),
          style: (text) => colors.dim(text),
        },
      ],
      (text) => colors.dim(text),
    ).map((line) => `  ${line}`),
  ];
}

/** `tool_choice: resolve (forced)` or the configured choice. */
export function formatToolChoice(choice: ToolChoice, colors: Colors): string {
  if (typeof choice === "object")
    return `${colors.bold("Steering:")} tool choice forced to ${colors.magenta(escapeTerminalText(choice.name))}`;
  return `${colors.bold("Steering:")} tool choice ${colors.magenta(escapeTerminalText(choice))}`;
}
