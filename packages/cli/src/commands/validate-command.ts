import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { flagOption, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { lintTools } from "../lint/strict-lints.js";
import { loadTools } from "../load/load-tools.js";
import { createColors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { formatSummary } from "../output/format-summary.js";
import { formatToolTable } from "../output/format-tool-table.js";
import { buildReport } from "../report/build-report.js";
import { formatJunitReport } from "../report/junit-report.js";
import type { LoadReport, ReportDocument } from "../report/report-types.js";
import type { Command } from "./command.js";
import { DEFAULT_PATHS_HELP, toolPathArgs, toolsOption } from "./tool-path-options.js";

const FORMATS = ["pretty", "json", "junit"] as const;

function prettyLines(report: ReportDocument, colors: ReturnType<typeof createColors>, cwd: string): string[] {
  return [
    ...formatToolTable(report.tools, colors, cwd),
    ...(report.diagnostics.length > 0 ? ["", ...formatDiagnostics(report.diagnostics, colors, cwd)] : []),
    "",
    formatSummary(report, colors),
  ];
}

/** `tooldock validate`: the contract check for CI, with pretty, JSON and JUnit reports. */
export const validateCommand: Command = {
  spec: {
    name: "validate",
    summary: "Check tool modules against the contract (for CI)",
    usage:
      "tooldock validate [paths…] [--tools PATH]… [--format pretty|json|junit] [--output FILE] [--strict]",
    options: {
      tools: toolsOption,
      format: {
        type: "string",
        valueName: "FORMAT",
        choices: FORMATS,
        description: "Report format (default pretty)",
      },
      output: {
        type: "string",
        valueName: "FILE",
        description: "Write the report to FILE; stdout then gets the pretty report",
      },
      strict: {
        type: "boolean",
        description:
          "Add contract lints (descriptions, object schema, provider names, OpenAI strict mode) and fail on any warning",
      },
    },
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
    details: [
      DEFAULT_PATHS_HELP,
      "Exit code 1 when any error (with --strict, any warning) is found.",
      "CI: tooldock validate ./tools --strict --format junit --output reports/tooldock.xml",
    ],
  },
  async run({ io, output, args }) {
    const strict = flagOption(args, "strict");
    const format = stringOption(args, "format") ?? "pretty";
    const { report: loaded } = await loadTools({
      io,
      output,
      paths: toolPathArgs(args),
      command: "validate",
    });
    const load: LoadReport = strict
      ? { ...loaded, diagnostics: [...loaded.diagnostics, ...lintTools(loaded.tools)] }
      : loaded;
    const report = buildReport(load, { strict });
    const render = (colors: ReturnType<typeof createColors>) =>
      format === "json"
        ? `${JSON.stringify(report, null, 2)}\n`
        : format === "junit"
          ? formatJunitReport(load, { strict, cwd: io.cwd })
          : `${prettyLines(report, colors, io.cwd).join("\n")}\n`;
    const file = stringOption(args, "output");
    if (file === undefined) {
      output.write(render(output.colors));
    } else {
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
  },
};
