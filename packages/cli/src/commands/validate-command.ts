import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { flagOption, type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { resolveIsolateOptions } from "../isolate/isolate-options.js";
import { loadToolsIsolated } from "../isolate/load-tools-isolated.js";
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

/** `--isolate-timeout` and `--isolate-memory` mean nothing without `--isolate`: say so. */
function rejectIsolateOptions(args: ParsedArgs): void {
  for (const name of ["isolate-timeout", "isolate-memory"]) {
    if (stringOption(args, name) !== undefined) throw new UsageError(`--${name} needs --isolate`, "validate");
  }
}

/** `tooldock validate`: the contract check for CI, with pretty, JSON and JUnit reports. */
export const validateCommand: Command = {
  spec: {
    name: "validate",
    summary: "Check tool modules against the contract (for CI)",
    usage:
      "tooldock validate [paths…] [--tools PATH]… [--format pretty|json|junit] [--output FILE] [--strict] [--isolate [--isolate-timeout MS] [--isolate-memory MB]]",
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
      isolate: {
        type: "boolean",
        description:
          "Load each module in a child process of its own, so a hang, process.exit, crash or out-of-memory module becomes a diagnostic",
      },
      "isolate-timeout": {
        type: "string",
        valueName: "MS",
        description:
          "With --isolate: time each module gets to load (default 10000, or $TOOLDOCK_ISOLATE_TIMEOUT_MS)",
      },
      "isolate-memory": {
        type: "string",
        valueName: "MB",
        description:
          "With --isolate: heap cap of each module's process (default 512, or $TOOLDOCK_ISOLATE_MEMORY_MB)",
      },
    },
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
    details: [
      DEFAULT_PATHS_HELP,
      "Exit code 1 when any error (with --strict, any warning) is found.",
      "CI: tooldock validate ./tools --strict --format junit --output reports/tooldock.xml",
      "--isolate runs each module in its own Node process (up to one per CPU at a time) with a deadline and a heap cap: " +
        "a module that loops forever is E_FACTORY_TIMEOUT, one that calls process.exit (even from a timer), crashes or runs out of memory is E_PROCESS_EXIT. " +
        "It costs one process start per module. Untrusted or third-party tool folders: tooldock validate ./vendor-tools --isolate --isolate-timeout 5000",
    ],
  },
  async run({ io, output, args }) {
    const strict = flagOption(args, "strict");
    const format = stringOption(args, "format") ?? "pretty";
    const paths = toolPathArgs(args);
    const isolate = flagOption(args, "isolate");
    if (!isolate) rejectIsolateOptions(args);
    const loaded = isolate
      ? await loadToolsIsolated({
          io,
          output,
          paths,
          command: "validate",
          isolate: resolveIsolateOptions(args, io.env),
        })
      : (await loadTools({ io, output, paths, command: "validate" })).report;
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
