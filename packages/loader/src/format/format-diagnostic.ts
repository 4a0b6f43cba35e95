import { isAbsolute, relative } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
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

/** What to do about each code, for a diagnostic that carries no hint of its own. */
const DEFAULT_HINTS: Record<string, string> = {
  E_DISCOVERY: "Check that the path exists and is readable.",
  E_NOT_EXECUTABLE: "Point at the tool's .ts or .js module; .md and .json files are metadata.",
  E_COMPILE: "Fix the syntax or type-level error at the location shown.",
  E_IMPORT:
    "The module threw while it was imported; move side effects into the factory and check its imports.",
  E_NO_FACTORY: "Default-export a factory: `export default defineToolFactory((pi) => ({ ... }))`.",
  E_FACTORY_THROW: "The factory threw; catch the failure or fix what it depends on.",
  E_FACTORY_TIMEOUT:
    "Make the factory settle faster, or raise its deadline: the loader's factoryTimeoutMs, the CLI's TOOLDOCK_FACTORY_TIMEOUT_MS.",
  E_PROCESS_EXIT: "Do not call process.exit in a tool module; throw an error instead.",
  E_INVALID_TOOL: "Return objects with name, label, description, parameters and execute.",
  E_INVALID_SCHEMA: "Use a TypeBox `Type.Object(...)` or a zod `z.object(...)` as `parameters`.",
  E_NAME_INVALID:
    "Use a name matching /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/ that is not reserved (resolve, built-ins).",
  E_NAME_CONFLICT: "Rename one of the two tools; names are unique in a session.",
};

/** The diagnostic's own hint, or the default for its code (every diagnostic the loader makes has one). */
export function hintFor(diagnostic: Diagnostic): string {
  return diagnostic.hint ?? DEFAULT_HINTS[diagnostic.code] ?? "See the message above.";
}
