import { relative } from "node:path";
import { stringOption } from "../args/parse-command-args.js";
import { scaffoldToolPackage } from "../init/scaffold.js";
import { shellWords } from "../output/shell-words.js";
import type { CommandContext } from "./command.js";

/** Runs `tooldock init` (spec: `initSpec`): scaffolds a publishable tool package with a passing test. */
export async function run({ io, output, args, version }: CommandContext): Promise<number> {
  const [directory = "."] = args.positionals;
  const scaffold = await scaffoldToolPackage({
    directory,
    cwd: io.cwd,
    toolName: stringOption(args, "name"),
    version,
    from: stringOption(args, "from"),
  });
  const { colors } = output;
  const shown = relative(io.cwd, scaffold.directory) || ".";
  output.print(
    `${colors.green("✔")} Created ${colors.bold(scaffold.names.packageName)} with tool ${colors.bold(scaffold.names.toolName)} in ${shown}`,
    ...scaffold.files.map((file) => `  ${colors.dim(file)}`),
    "",
    "Next:",
    `  cd ${shellWords(shown)}`,
    "  npm install",
    "  npm test",
    "  npx @tooldock/cli validate . --strict",
  );
  return 0;
}
