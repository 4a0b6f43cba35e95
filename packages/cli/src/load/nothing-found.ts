import { resolve } from "node:path";
import { discoverToolModules } from "@tooldock/loader";
import type { Diagnostic, DiagnosticErrorCode } from "@tooldock/sdk";
import type { LoadReport } from "../report/report-types.js";
import { isInside } from "./path-inside.js";

/** The error when a command that needs tools (`validate`, `schema`) loaded none at all. */
export const NOTHING_FOUND: DiagnosticErrorCode = "E_NOTHING_TO_VALIDATE";

/**
 * The commands that say so when they load no tool, and what loading none means for each
 * (`serve`: the servers, `mcp` and `inspect`).
 */
const OUTCOMES = {
  validate: { outcome: "nothing was validated", retry: "validate", inPath: "nothing in it was validated" },
  schema: {
    outcome: "there is no tool definition to print",
    retry: "print the schema",
    inPath: "it adds no tool definition",
  },
  list: {
    outcome: "there is nothing to list",
    retry: "list the tools",
    inPath: "it adds nothing to the list",
  },
  serve: {
    outcome: "there is no tool to serve",
    retry: "serve the tools",
    inPath: "it adds no tool to serve",
  },
} as const;

/** What counts as a module, for the hints. */
const WHAT_IS_A_MODULE =
  "a folder's top-level module files and each subfolder's index file are modules; " +
  'a package lists its own in package.json, e.g. "tooldock": { "tools": [...] }';

/** What a load found, as {@link nothingFound} reads it (a `LoadReport`, or the loader's result). */
export type FoundReport = Pick<LoadReport, "modules" | "diagnostics"> & { tools: readonly unknown[] };

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
  loaded: FoundReport,
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
      ? `Check the paths (${WHAT_IS_A_MODULE}).${skippedNote(loaded.diagnostics)}`
      : "A factory that returns no tool (an empty list, or tools it leaves out on this machine) gives nothing to check: " +
        `${retry} where it returns its tools, or add a module that does.`,
  };
}

/**
 * Points at the warnings that say what was skipped, by code: the pretty report prints errors
 * first, so they come after this one, and JSON and JUnit have no "above".
 */
function skippedNote(diagnostics: readonly Diagnostic[]): string {
  const codes = [...new Set(diagnostics.map((diagnostic) => diagnostic.code))];
  if (codes.length === 0) return "";
  return codes.length === 1
    ? ` The ${codes[0]} warning says what was skipped.`
    : ` The ${codes.slice(0, -1).join(", ")} and ${codes.at(-1)} warnings say what was skipped.`;
}

/** Options of {@link nothingFoundDiagnostics}. */
export interface NothingFoundOptions {
  cwd: string;
  /** As the load was made (`--opencode`): a path is scanned again the same way. */
  opencode: boolean;
}

/**
 * The {@link NOTHING_FOUND} errors of a load: {@link nothingFound} when it loaded no tool at
 * all, else one for each path named on the command line that yields no module (an emptied
 * folder beside folders that still hold tools) and that nothing else reports (an error or a
 * warning about something in it). A path whose modules were found through another path
 * (`t1 t1/a.ts`) yields them too: it is scanned again alone before it is reported.
 */
export async function nothingFoundDiagnostics(
  loaded: FoundReport,
  paths: readonly string[],
  command: NothingFoundCommand,
  options: NothingFoundOptions,
): Promise<Diagnostic[]> {
  const whole = nothingFound(loaded, paths, command);
  if (whole !== undefined) return [whole];
  if (paths.length < 2) return [];
  const diagnostics: Diagnostic[] = [];
  for (const path of paths) {
    const root = resolve(options.cwd, path);
    const found =
      loaded.modules.some((module) => isInside(module.path, root) || isInside(module.resolvedPath, root)) ||
      loaded.diagnostics.some((diagnostic) => isInside(resolve(options.cwd, diagnostic.path), root));
    if (found) continue;
    const alone = await discoverToolModules({ paths: [path], cwd: options.cwd, opencode: options.opencode });
    if (alone.modules.length > 0 || alone.diagnostics.length > 0) continue;
    diagnostics.push({
      code: NOTHING_FOUND,
      severity: "error",
      message: `No tool module was found in ${path}, one of the paths given, so ${OUTCOMES[command].inPath}.`,
      path,
      hint: `Check the path (${WHAT_IS_A_MODULE}), or leave it out of the paths.`,
    });
  }
  return diagnostics;
}

/** The load report, with the {@link nothingFoundDiagnostics} added. */
export async function withNothingFound(
  loaded: LoadReport,
  paths: readonly string[],
  command: NothingFoundCommand,
  options: NothingFoundOptions,
): Promise<LoadReport> {
  const diagnostics = await nothingFoundDiagnostics(loaded, paths, command, options);
  return diagnostics.length === 0
    ? loaded
    : { ...loaded, diagnostics: [...loaded.diagnostics, ...diagnostics] };
}

/**
 * What a server (`mcp`, `inspect`) says when the paths it was given serve no tool, or one of
 * them holds no module: each line a message and its hint. It goes on serving (with a watch,
 * the folder may fill later). None without paths (`mcp --builtin` alone).
 */
export async function nothingToServe(
  loaded: FoundReport,
  paths: readonly string[],
  options: NothingFoundOptions,
): Promise<string[]> {
  if (paths.length === 0) return [];
  const diagnostics = await nothingFoundDiagnostics(loaded, paths, "serve", options);
  return diagnostics.map(
    (nothing) => `${nothing.message}${nothing.hint === undefined ? "" : `\n  hint: ${nothing.hint}`}`,
  );
}
