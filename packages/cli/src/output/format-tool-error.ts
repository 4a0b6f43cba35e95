import type { ToolCallError } from "@tooldock/runtime";
import { count } from "@tooldock/runtime/internal";
import { displayPath } from "../report/diagnostic-text.js";
import type { Colors } from "./colors.js";
import { escapeTerminalText } from "./terminal-text.js";

/** Most lines of the stack printed; `--json` carries the whole stack (as the session capped it). */
export const MAX_PRINTED_STACK_LINES = 12;

/**
 * Where a tool that threw failed, for stderr: `tooldock call: "x" threw at file:line:column`
 * (the tool module's own line, relative to `cwd` when inside it), then the source-mapped stack
 * as the session read it, down to the last frame in the tool's module: the frames below it
 * are what called the tool's `execute` (the runtime), so they are counted, not printed. At
 * most {@link MAX_PRINTED_STACK_LINES} lines. A thrown value without a stack (a string) prints
 * the first line only; the result already shows the message. Text from the tool is escaped.
 */
export function formatToolError(
  toolName: string,
  error: ToolCallError,
  colors: Colors,
  cwd: string,
): string[] {
  const where = error.location
    ? ` at ${colors.cyan(escapeTerminalText(`${displayPath(error.location.file, cwd)}:${error.location.line}:${error.location.column}`))}`
    : "";
  const lines = [`${colors.red("tooldock call:")} "${escapeTerminalText(toolName)}" threw${where}`];
  if (error.stack === undefined) return lines;
  const stack = escapeTerminalText(error.stack, { multiline: true }).split("\n");
  const file = error.location === undefined ? undefined : escapeTerminalText(`${error.location.file}:`);
  const lastOwn = file === undefined ? -1 : stack.findLastIndex((line) => line.includes(file));
  const shown = stack.slice(0, Math.min(lastOwn < 0 ? stack.length : lastOwn + 1, MAX_PRINTED_STACK_LINES));
  lines.push(...shown.map((line) => `  ${colors.dim(line)}`));
  const more = stack.length - shown.length;
  if (more > 0)
    lines.push(`  ${colors.dim(`… ${count(more, "more line")}; --json carries the whole stack`)}`);
  return lines;
}
