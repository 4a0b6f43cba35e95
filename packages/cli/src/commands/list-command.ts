import { flagOption } from "../args/parse-command-args.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import { loadTools } from "../load/load-tools.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { buildReport } from "../report/build-report.js";
import type { CommandContext } from "./command.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

/** Runs `tooldock list` (spec: `listSpec`): the tools a host would load, and every diagnostic. */
export async function run({ io, output, args }: CommandContext): Promise<number> {
  const loaded = await loadTools({
    io,
    output,
    paths: toolPathArgs(args),
    command: "list",
    checkSessionHooks: true,
    isolation: readIsolation(args, io, "list", false),
    opencode: readOpencode(args),
  });
  await loaded.close();
  const load = loaded.report;
  const report = buildReport(load, { strict: false });
  if (flagOption(args, "json")) {
    output.printJson(report);
  } else {
    const { colors } = output;
    output.print(...formatToolTable(report.tools, colors, io.cwd));
    if (report.diagnostics.length > 0)
      output.print("", ...formatDiagnostics(report.diagnostics, colors, io.cwd));
    output.print("", formatSummary(report, colors));
  }
  return report.ok ? 0 : 1;
}
