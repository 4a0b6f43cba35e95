import type { Diagnostic } from "@tooldock/sdk";
import { hintFor } from "../report/diagnostic-hints.js";
import { diagnosticLocation } from "../report/diagnostic-text.js";
import type { Colors } from "./colors.js";
import { escapeTerminalText } from "./terminal-text.js";

/**
 * One diagnostic for a person: the file (with line and column), the code and the tool on the
 * first line; then the message, the source line when known, and the hint. Text from the
 * diagnostic (a module's error message, its file name) has its control sequences escaped.
 */
export function formatDiagnostic(diagnostic: Diagnostic, colors: Colors, cwd: string): string[] {
  const severity = diagnostic.severity === "error" ? colors.red("error") : colors.yellow("warning");
  const tool = diagnostic.toolName ? colors.dim(` (tool ${escapeTerminalText(diagnostic.toolName)})`) : "";
  const message = escapeTerminalText(diagnostic.message, { multiline: true });
  const lines = [
    `${severity} ${colors.bold(escapeTerminalText(diagnostic.code))} ${colors.cyan(escapeTerminalText(diagnosticLocation(diagnostic, cwd)))}${tool}`,
    `  ${message.split("\n").join("\n  ")}`,
  ];
  if (diagnostic.location?.lineText) {
    const { line, column, lineText } = diagnostic.location;
    const gutter = `  ${line} | `;
    lines.push(
      colors.dim(`${gutter}${escapeTerminalText(lineText, { multiline: true })}`),
      `${" ".repeat(gutter.length + escapeTerminalText(lineText.slice(0, Math.max(0, column - 1)), { multiline: true }).length)}${colors.red("^")}`,
    );
  }
  lines.push(`  ${colors.dim("hint:")} ${escapeTerminalText(hintFor(diagnostic), { multiline: true })}`);
  return lines;
}

/** Every diagnostic, errors first, separated by blank lines. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], colors: Colors, cwd: string): string[] {
  const ordered = [...diagnostics].sort(
    (a, b) => Number(a.severity === "warning") - Number(b.severity === "warning"),
  );
  return ordered.flatMap((diagnostic, index) => [
    ...(index > 0 ? [""] : []),
    ...formatDiagnostic(diagnostic, colors, cwd),
  ]);
}
