import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";

/** A `--strict` finding: a warning about one tool. */
export function lintDiagnostic(
  tool: ToolEntry,
  code: `W_${string}`,
  message: string,
  hint: string,
): Diagnostic {
  return { code, severity: "warning", message, path: tool.path, toolName: tool.name, hint };
}
