import type { OptionSpec } from "../args/command-spec.js";
import { listOption, type ParsedArgs } from "../args/parse-command-args.js";

/** `--tools <path>`, shared by every command that loads tools. */
export const toolsOption: OptionSpec = {
  type: "string",
  multiple: true,
  valueName: "PATH",
  description: "A tool module, folder or package to load, like a positional path",
};

/** Help text on where tools are looked for when no path is given. */
export const DEFAULT_PATHS_HELP =
  'Paths are files, folders or packages (with a "tooldock" field in package.json). With none, ' +
  'tooldock loads ./.tooldock/tools and, when ./package.json has a "tooldock" field, the current package.';

/** Positional paths (after `skip` leading positionals) followed by every `--tools`. */
export function toolPathArgs(args: ParsedArgs, skip = 0): string[] {
  return [...args.positionals.slice(skip), ...listOption(args, "tools")];
}
