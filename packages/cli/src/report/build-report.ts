import type { LoadReport, ReportDocument } from "./report-types.js";

/**
 * The JSON document of docs/contract.md §6. `ok` is false exactly when there is an error diagnostic, or,
 * with `strict`, also a warning.
 */
export function buildReport(load: LoadReport, options: { strict: boolean }): ReportDocument {
  const errors = load.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const warnings = load.diagnostics.length - errors;
  return {
    ok: errors === 0 && (!options.strict || warnings === 0),
    summary: { modules: load.modules.length, tools: load.tools.length, errors, warnings },
    tools: load.tools,
    diagnostics: load.diagnostics,
  };
}
