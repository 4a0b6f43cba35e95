import { flagOption } from "../args/parse-command-args.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import { loadTools } from "../load/load-tools.js";
import { nothingFoundDiagnostics } from "../load/nothing-found.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { buildReport } from "../report/build-report.js";
import type { CommandContext } from "./command.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

/** Runs `tooldock list` (spec: `listSpec`): the tools a host would load, and every diagnostic. */
export async function run({ io, output, args }: CommandContext): Promise<number> {
  const paths = toolPathArgs(args);
  const opencode = readOpencode(args);
  const loaded = await loadTools({
    io,
    output,
    paths,
    command: "list",
    checkSessionHooks: true,
    isolation: readIsolation(args, io, "list", false),
    opencode,
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
  const { errorColors } = output;
  for (const nothing of await nothingFoundDiagnostics(load, paths, "list", { cwd: io.cwd, opencode }))
    output.printError(
      `${errorColors.yellow("tooldock list:")} ${nothing.message}`,
      ...(nothing.hint === undefined ? [] : [`  ${errorColors.dim(`hint: ${nothing.hint}`)}`]),
    );
  return report.ok ? 0 : 1;
}
