import type { OptionSpec } from "../args/command-spec.js";
import { flagOption, listOption, type ParsedArgs } from "../args/parse-command-args.js";

/** `--tools <path>`, shared by every command that loads tools. */
export const toolsOption: OptionSpec = {
  type: "string",
  multiple: true,
  valueName: "PATH",
  description: "A tool module, folder or package to load, like a positional path",
};

/** `--opencode`, shared by every command that loads tools: the loader's `opencode` option. */
export const opencodeOption: OptionSpec = {
  type: "boolean",
  description:
    "Also load opencode custom tools: .opencode/tool(s)/*.{js,ts} of a project root, tool({ description, args, execute }) exports",
};

/** The usage-line fragment of `--opencode`. */
export const OPENCODE_USAGE = "[--opencode]";

/** Whether `--opencode` was given: the loader's `opencode` option for every load of the command. */
export function readOpencode(args: ParsedArgs): boolean {
  return flagOption(args, "opencode");
}

/** Help text on where tools are looked for when no path is given. */
export const DEFAULT_PATHS_HELP =
  'Paths are files, folders or packages (with a "tooldock" field in package.json). With none, ' +
  'tooldock loads ./.tooldock/tools and, when ./package.json has a "tooldock" field, the current package.';

/** Positional paths (after `skip` leading positionals) followed by every `--tools`. */
export function toolPathArgs(args: ParsedArgs, skip = 0): string[] {
  return [...args.positionals.slice(skip), ...listOption(args, "tools")];
}
