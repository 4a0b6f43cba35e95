import { isAbsolute, relative } from "node:path";
import type { Diagnostic } from "@tooldock/sdk";
import { hintFor } from "./diagnostic-hints.js";

/** A path relative to `cwd` when it lies inside it; otherwise unchanged. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/** `file:line:column` (line and column when known). */
export function diagnosticLocation(diagnostic: Diagnostic, cwd: string): string {
  const file = displayPath(diagnostic.path, cwd);
  return diagnostic.location ? `${file}:${diagnostic.location.line}:${diagnostic.location.column}` : file;
}

/** Plain text of one diagnostic: location, code, tool, message, source line and hint. */
export function formatDiagnosticText(diagnostic: Diagnostic, cwd: string): string {
  const tool = diagnostic.toolName ? ` (tool ${diagnostic.toolName})` : "";
  const lines = [
    `${diagnostic.severity} ${diagnostic.code} ${diagnosticLocation(diagnostic, cwd)}${tool}`,
    diagnostic.message,
  ];
  if (diagnostic.location?.lineText)
    lines.push(`  ${diagnostic.location.line} | ${diagnostic.location.lineText}`);
  lines.push(`hint: ${hintFor(diagnostic)}`);
  return lines.join("\n");
}
