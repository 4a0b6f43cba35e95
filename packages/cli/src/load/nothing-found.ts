import type { Diagnostic, DiagnosticErrorCode } from "@tooldock/sdk";
import type { LoadReport } from "../report/report-types.js";

/** The error when a command that needs tools (`validate`, `schema`) loaded none at all. */
export const NOTHING_FOUND: DiagnosticErrorCode = "E_NOTHING_TO_VALIDATE";

/** The commands that say so when they load no tool, and what loading none means for each. */
const OUTCOMES = {
  validate: { outcome: "nothing was validated", retry: "validate" },
  schema: { outcome: "there is no tool definition to print", retry: "print the schema" },
  list: { outcome: "there is nothing to list", retry: "list the tools" },
} as const;

/** A command that says so when it loads no tool. */
export type NothingFoundCommand = keyof typeof OUTCOMES;

/**
 * The {@link NOTHING_FOUND} error when no tool was loaded and nothing else says why (a missing
 * path is an `E_DISCOVERY`, a module that failed its own error); undefined otherwise. Paths
 * that hold no module (a mistyped path, an emptied folder) or only modules that give no tool
 * must not let CI pass having checked nothing: `validate` and `schema` add it to their report,
 * `list` (where listing nothing is a fair answer) prints it as a note.
 */
export function nothingFound(
  loaded: LoadReport,
  paths: readonly string[],
  command: NothingFoundCommand,
): Diagnostic | undefined {
  if (loaded.tools.length > 0) return undefined;
  if (loaded.diagnostics.some((diagnostic) => diagnostic.severity === "error")) return undefined;
  const { outcome, retry } = OUTCOMES[command];
  const where = paths.length > 0 ? paths.join(", ") : "./.tooldock/tools and the package's tooldock field";
  const none = loaded.modules.length === 0;
  return {
    code: NOTHING_FOUND,
    severity: "error",
    message: none
      ? `No tool module was found in ${where}, so ${outcome}.`
      : `The ${loaded.modules.length === 1 ? "module" : `${loaded.modules.length} modules`} found in ${where} gave no tool, so ${outcome}.`,
    path: paths[0] ?? ".",
    hint: none
      ? "Check the paths (a folder's top-level module files and each subfolder's index file are modules; " +
        'a package lists its own in package.json, e.g. "tooldock": { "tools": [...] }).' +
        (loaded.diagnostics.length > 0 ? " The warnings above say what was skipped." : "")
      : "A factory that returns no tool (an empty list, or tools it leaves out on this machine) gives nothing to check: " +
        `${retry} where it returns its tools, or add a module that does.`,
  };
}

/** The load report, with the {@link nothingFound} error added when there is one. */
export function withNothingFound(
  loaded: LoadReport,
  paths: readonly string[],
  command: NothingFoundCommand,
): LoadReport {
  const diagnostic = nothingFound(loaded, paths, command);
  return diagnostic === undefined ? loaded : { ...loaded, diagnostics: [...loaded.diagnostics, diagnostic] };
}
