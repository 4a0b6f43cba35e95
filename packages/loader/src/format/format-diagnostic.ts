import { isAbsolute, relative } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
import { hintFor } from "./diagnostic-hints.js";
import { escapeTerminalText } from "./terminal-text.js";

/** Options of {@link formatDiagnostic}. */
export interface FormatDiagnosticOptions {
  /** Paint with ANSI colours (severity, code, location, hint label, the caret). Default `false`. */
  color?: boolean;
  /** Show the module's path relative to this folder when it lies inside it. Default: the path as is. */
  cwd?: string;
}

type Paint = (text: string) => string;

// The SGR sequences of the colours used, as the CLI's picocolors writes them.
const style =
  (open: number, close: number): Paint =>
  (text) =>
    `\u001b[${open}m${text}\u001b[${close}m`;
const PAINTS = {
  red: style(31, 39),
  yellow: style(33, 39),
  cyan: style(36, 39),
  bold: style(1, 22),
  dim: style(2, 22),
};
// `String` gives a string back as it is: no paint.
const NO_PAINTS: typeof PAINTS = { red: String, yellow: String, cyan: String, bold: String, dim: String };

/**
 * One load diagnostic as text for a person, exactly as the `tooldock` CLI prints it: the
 * severity, code, `file:line:column` and tool on the first line; then the message, the source
 * line with a caret under the column (when the diagnostic has a `location` with its
 * `lineText`), and the hint. Lines are joined with `\n`, with no newline at the end. Text that
 * comes from the module (its error message, its file name, the source line) has its control
 * characters escaped (see `escapeTerminalText`), so printing it runs nothing on a terminal.
 *
 * @example
 * ```ts
 * const { diagnostics } = await loadCustomTools({ paths: ["tools"] });
 * for (const diagnostic of diagnostics)
 *   process.stderr.write(`${formatDiagnostic(diagnostic, { color: process.stderr.isTTY, cwd: process.cwd() })}\n\n`);
 * ```
 */
export function formatDiagnostic(diagnostic: Diagnostic, options: FormatDiagnosticOptions = {}): string {
  const paint = options.color ? PAINTS : NO_PAINTS;
  const severity = diagnostic.severity === "error" ? paint.red("error") : paint.yellow("warning");
  const tool = diagnostic.toolName ? paint.dim(` (tool ${escapeTerminalText(diagnostic.toolName)})`) : "";
  const message = escapeTerminalText(diagnostic.message, { multiline: true });
  const where = escapeTerminalText(diagnosticWhere(diagnostic, options.cwd));
  const lines = [
    `${severity} ${paint.bold(escapeTerminalText(diagnostic.code))} ${paint.cyan(where)}${tool}`,
    `  ${message.split("\n").join("\n  ")}`,
  ];
  if (diagnostic.location?.lineText) {
    const { line, column, lineText } = diagnostic.location;
    const gutter = `  ${line} | `;
    const before = escapeTerminalText(lineText.slice(0, Math.max(0, column - 1)), { multiline: true });
    lines.push(
      paint.dim(`${gutter}${escapeTerminalText(lineText, { multiline: true })}`),
      `${" ".repeat(gutter.length + before.length)}${paint.red("^")}`,
    );
  }
  lines.push(`  ${paint.dim("hint:")} ${escapeTerminalText(hintFor(diagnostic), { multiline: true })}`);
  return lines.join("\n");
}

/** `file:line:column` (line and column when known), the file relative to `cwd` when inside it. */
function diagnosticWhere({ path, location }: Diagnostic, cwd: string | undefined): string {
  const inside = cwd === undefined || !isAbsolute(path) ? "" : relative(cwd, path);
  const file = inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
  return location ? `${file}:${location.line}:${location.column}` : file;
}
