import type { Diagnostic } from "@tooldock/sdk";

/**
 * One diagnostic as the lines `tooldock mcp` writes to stderr:
 * `error E_COMPILE tools/bad.ts:3:7: <message>`, then the source line and the hint.
 */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const { location } = diagnostic;
  const where = location ? `${diagnostic.path}:${location.line}:${location.column}` : diagnostic.path;
  const tool = diagnostic.toolName ? ` (${diagnostic.toolName})` : "";
  const lines = [`${diagnostic.severity} ${diagnostic.code} ${where}${tool}: ${diagnostic.message}`];
  if (location?.lineText) lines.push(`  | ${location.lineText}`);
  if (diagnostic.hint) lines.push(`  hint: ${diagnostic.hint}`);
  return `${lines.join("\n")}\n`;
}
