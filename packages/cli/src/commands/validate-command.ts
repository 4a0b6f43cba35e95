import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { IsolationOptions } from "@tooldock/loader";
import { flagOption, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { readIsolation } from "../isolate/isolation-flags.js";
import { loadTools } from "../load/load-tools.js";
import { withNothingFound } from "../load/nothing-found.js";
import { createColors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { stringifyJson } from "../output/terminal-text.js";
import { buildReport } from "../report/build-report.js";
import type { LoadReport, ReportDocument } from "../report/report-types.js";
import type { CommandContext } from "./command.js";
import { assertOutputTarget } from "./output-target.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

function prettyLines(report: ReportDocument, colors: ReturnType<typeof createColors>, cwd: string): string[] {
  return [
    ...formatToolTable(report.tools, colors, cwd),
    ...(report.diagnostics.length > 0 ? ["", ...formatDiagnostics(report.diagnostics, colors, cwd)] : []),
    "",
    formatSummary(report, colors),
  ];
}

/** Isolated (the default): each module loaded in a tool host of its own. */
async function loadIsolated(
  { io, output }: CommandContext,
  paths: string[],
  isolation: IsolationOptions,
  opencode: boolean,
): Promise<LoadReport> {
  const { validateIsolated } = await import("../isolate/validate-isolated.js");
  return validateIsolated({ io, output, paths, isolation, opencode });
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
  // Isolated unless --no-isolate: CI validates modules it did not write.
  const isolation = readIsolation(args, io, "validate", true);
  const opencode = readOpencode(args);
  const file = stringOption(args, "output");
  // Before loading (a folder, an input) and again before writing (a discovered module).
  if (file !== undefined) await assertOutputTarget(file, io.cwd, paths);
  // Isolation, --strict and --format junit each import their code only when used.
  const loaded = await withNothingFound(
    isolation
      ? await loadIsolated(context, paths, isolation, opencode)
      : (await loadTools({ io, output, paths, command: "validate", checkSessionHooks: true, opencode }))
          .report,
    paths,
    "validate",
    { cwd: io.cwd, opencode },
  );
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
