import { flagOption } from "../args/parse-command-args.js";
import { loadTools } from "../load/load-tools.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { buildReport } from "../report/build-report.js";
import type { Command } from "./command.js";
import { DEFAULT_PATHS_HELP, toolPathArgs, toolsOption } from "./tool-path-options.js";

/** `tooldock list [paths…] [--json]`: the tools a host would load, and every diagnostic. */
export const listCommand: Command = {
  spec: {
    name: "list",
    summary: "Load tools and print a table of them and every diagnostic",
    usage: "tooldock list [paths…] [--tools PATH]… [--json]",
    options: {
      tools: toolsOption,
      json: { type: "boolean", description: "Print one JSON document (SPEC §6) instead of the table" },
    },
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
    details: [DEFAULT_PATHS_HELP, "Exit code 1 when any module has an error diagnostic."],
  },
  async run({ io, output, args }) {
    const { report: load } = await loadTools({ io, output, paths: toolPathArgs(args), command: "list" });
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
  },
};
