import { flagOption } from "../args/parse-command-args.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import { loadTools } from "../load/load-tools.js";
import { nothingFound } from "../load/nothing-found.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { buildReport } from "../report/build-report.js";
import type { CommandContext } from "./command.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

/** Runs `tooldock list` (spec: `listSpec`): the tools a host would load, and every diagnostic. */
export async function run({ io, output, args }: CommandContext): Promise<number> {
  const paths = toolPathArgs(args);
  const loaded = await loadTools({
    io,
    output,
    paths,
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
  // Listing nothing is a fair answer (exit 0), but it is said, on stderr, with where it looked.
  const nothing = nothingFound(load, paths, "list");
  if (nothing !== undefined) {
    const { errorColors } = output;
    output.printError(
      `${errorColors.yellow("tooldock list:")} ${nothing.message}`,
      ...(nothing.hint === undefined ? [] : [`  ${errorColors.dim(`hint: ${nothing.hint}`)}`]),
    );
  }
  return report.ok ? 0 : 1;
}
