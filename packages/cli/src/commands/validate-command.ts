import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { flagOption, type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { loadTools } from "../load/load-tools.js";
import { createColors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { stringifyJson } from "../output/terminal-text.js";
import { buildReport } from "../report/build-report.js";
import type { LoadReport, ReportDocument } from "../report/report-types.js";
import type { CommandContext } from "./command.js";
import { assertOutputTarget } from "./output-target.js";
import { toolPathArgs } from "./tool-path-options.js";

function prettyLines(report: ReportDocument, colors: ReturnType<typeof createColors>, cwd: string): string[] {
  return [
    ...formatToolTable(report.tools, colors, cwd),
    ...(report.diagnostics.length > 0 ? ["", ...formatDiagnostics(report.diagnostics, colors, cwd)] : []),
    "",
    formatSummary(report, colors),
  ];
}

/** `--isolate-timeout` and `--isolate-memory` mean nothing without `--isolate`: say so. */
function rejectIsolateOptions(args: ParsedArgs): void {
  for (const name of ["isolate-timeout", "isolate-memory"]) {
    if (stringOption(args, name) !== undefined) throw new UsageError(`--${name} needs --isolate`, "validate");
  }
}

/** `--isolate`: each module loaded in a child process of its own. */
async function loadIsolated({ io, output, args }: CommandContext, paths: string[]): Promise<LoadReport> {
  const { resolveIsolateOptions } = await import("../isolate/isolate-options.js");
  const isolate = resolveIsolateOptions(args, io.env);
  const { loadToolsIsolated } = await import("../isolate/load-tools-isolated.js");
  return loadToolsIsolated({ io, output, paths, command: "validate", isolate });
}

/** `--strict`: the load report plus the contract lints. */
async function withStrictLints(loaded: LoadReport): Promise<LoadReport> {
  const { lintTools } = await import("../lint/strict-lints.js");
  return { ...loaded, diagnostics: [...loaded.diagnostics, ...lintTools(loaded.tools)] };
}

/** Runs `tooldock validate` (spec: `validateSpec`): the contract check, as a pretty, JSON or JUnit report. */
export async function run(context: CommandContext): Promise<number> {
  const { io, output, args } = context;
  const strict = flagOption(args, "strict");
  const format = stringOption(args, "format") ?? "pretty";
  const paths = toolPathArgs(args);
  const isolate = flagOption(args, "isolate");
  if (!isolate) rejectIsolateOptions(args);
  const file = stringOption(args, "output");
  // Before loading (a folder, an input) and again before writing (a discovered module).
  if (file !== undefined) await assertOutputTarget(file, io.cwd, paths);
  // --isolate, --strict and --format junit each import their code only when given.
  const loaded = isolate
    ? await loadIsolated(context, paths)
    : (await loadTools({ io, output, paths, command: "validate", checkSessionHooks: true })).report;
  const load = strict ? await withStrictLints(loaded) : loaded;
  const report = buildReport(load, { strict });
  const junit = format === "junit" ? await import("../report/junit-report.js") : undefined;
  const render = (colors: ReturnType<typeof createColors>) =>
    format === "json"
      ? `${stringifyJson(report)}\n`
      : junit
        ? junit.formatJunitReport(load, { strict, cwd: io.cwd })
        : `${prettyLines(report, colors, io.cwd).join("\n")}\n`;
  if (file === undefined) {
    output.write(render(output.colors));
  } else {
    await assertOutputTarget(file, io.cwd, paths, load.modules);
    const target = resolve(io.cwd, file);
    try {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, render(createColors(false)));
    } catch (error) {
      throw new UsageError(`cannot write --output ${file}: ${(error as Error).message}`, "validate");
    }
    output.print(
      ...prettyLines(report, output.colors, io.cwd),
      output.colors.dim(`${format} report written to ${file}`),
    );
  }
  return report.ok ? 0 : 1;
}
