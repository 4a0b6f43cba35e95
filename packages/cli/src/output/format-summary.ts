import type { ReportDocument } from "../report/report-types.js";
import type { Colors } from "./colors.js";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** `✔ 5 modules, 7 tools, 0 errors, 0 warnings` (✖ and red when not ok). */
export function formatSummary(report: ReportDocument, colors: Colors): string {
  const { modules, tools, errors, warnings } = report.summary;
  const text = [
    plural(modules, "module"),
    plural(tools, "tool"),
    plural(errors, "error"),
    plural(warnings, "warning"),
  ].join(", ");
  return report.ok ? colors.green(`✔ ${text}`) : colors.red(`✖ ${text}`);
}
