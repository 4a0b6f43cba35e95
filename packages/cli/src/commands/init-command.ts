import { relative } from "node:path";
import { stringOption } from "../args/parse-command-args.js";
import { scaffoldToolPackage } from "../init/scaffold.js";
import type { Command } from "./command.js";

/** `tooldock init <dir>`: scaffolds a publishable tool package with a passing test. */
export const initCommand: Command = {
  spec: {
    name: "init",
    summary: "Scaffold a publishable tool package (manifest, a tool, a vitest test)",
    usage: "tooldock init <dir> [--name TOOL_NAME]",
    options: {
      name: {
        type: "string",
        valueName: "TOOL_NAME",
        description: "The tool's name (default: from the folder name)",
      },
    },
    positionals: { min: 1, max: 1 },
    details: [
      'The folder must be new or empty. The package lists its tool in the "tooldock" field of package.json, has @tooldock/sdk as a peer dependency, and tests the tool with @tooldock/loader/testing.',
    ],
  },
  async run({ io, output, args, version }) {
    const [directory = "."] = args.positionals;
    const scaffold = await scaffoldToolPackage({
      directory,
      cwd: io.cwd,
      toolName: stringOption(args, "name"),
      version,
    });
    const { colors } = output;
    const shown = relative(io.cwd, scaffold.directory) || ".";
    output.print(
      `${colors.green("✔")} Created ${colors.bold(scaffold.names.packageName)} with tool ${colors.bold(scaffold.names.toolName)} in ${shown}`,
      ...scaffold.files.map((file) => `  ${colors.dim(file)}`),
      "",
      "Next:",
      `  cd ${shown}`,
      "  npm install",
      "  npm test",
      "  npx tooldock validate . --strict",
    );
    return 0;
  },
};
