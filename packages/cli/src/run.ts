import { didYouMean } from "./args/did-you-mean.js";
import { formatCommandHelp, formatMainHelp } from "./args/format-help.js";
import { parseCommandArgs } from "./args/parse-command-args.js";
import { UsageError } from "./args/usage-error.js";
import { type CliIo, processIo } from "./cli-io.js";
import { COMMANDS } from "./commands/commands.js";
import { createOutput, type Output } from "./output/output.js";
import { escapeTerminalText } from "./output/terminal-text.js";
import { cliVersion } from "./version.js";

const MAIN_USAGE = `tooldock <${COMMANDS.map((command) => command.spec.name).join("|")}> [options]`;

/** `; did you mean "validate"?` for a mistyped command, or "". */
function suggestCommand(name: string): string {
  return didYouMean(
    name,
    COMMANDS.map((command) => command.spec.name),
    (match) => `"${match}"`,
  );
}

function printUsageError(output: Output, error: UsageError): void {
  const spec = COMMANDS.find((command) => command.spec.name === error.command)?.spec;
  const { errorColors: colors } = output;
  output.printError(
    `${colors.red("tooldock:")} ${error.message}`,
    `usage: ${spec ? spec.usage : MAIN_USAGE}`,
    colors.dim(`Run "tooldock ${spec ? `${spec.name} ` : ""}--help" for details.`),
  );
}

/**
 * Runs the `tooldock` command line and resolves to its exit code: 0 fine, 1 a contract error
 * or a tool error result, 2 bad usage or an internal fault. Never throws and never exits the
 * process, so tests can call it in-process with a fake {@link CliIo}.
 *
 * @example
 * ```ts
 * process.exitCode = await run(process.argv.slice(2));
 * ```
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const output = createOutput(io);
  const [name, ...rest] = argv;
  try {
    const version = cliVersion();
    if (name === "--version" || name === "-v") {
      output.print(version);
      return 0;
    }
    if (name === "--help" || name === "-h") {
      output.print(
        ...formatMainHelp(
          COMMANDS.map((command) => command.spec),
          version,
        ),
      );
      return 0;
    }
    if (name === "help") {
      const topic = COMMANDS.find((command) => command.spec.name === rest[0]);
      if (rest[0] !== undefined && !topic) {
        throw new UsageError(`unknown command "${rest[0]}"${suggestCommand(rest[0])}`);
      }
      output.print(
        ...(topic
          ? formatCommandHelp(topic.spec)
          : formatMainHelp(
              COMMANDS.map((c) => c.spec),
              version,
            )),
      );
      return 0;
    }
    if (name === undefined) throw new UsageError("missing command");
    const command = COMMANDS.find((candidate) => candidate.spec.name === name);
    if (!command) {
      const known = COMMANDS.map((candidate) => candidate.spec.name).join(", ");
      throw new UsageError(`unknown command "${name}" (commands: ${known})${suggestCommand(name)}`);
    }
    const args = parseCommandArgs(command.spec, rest);
    if (args.help) {
      output.print(...formatCommandHelp(command.spec));
      return 0;
    }
    // Only now is the command's module imported: help and bad usage load no command at all.
    const { run: runCommand } = await command.load();
    return await runCommand({ io, output, args, version });
  } catch (error) {
    if (error instanceof UsageError) {
      printUsageError(output, error);
      return 2;
    }
    // Tooldock's own documented faults (a durable store that cannot be opened or read, …)
    // say what happened and what to do: the command failed, tooldock did not.
    // (Told by name and code, not instanceof: the shell imports no Tooldock package.)
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof Error && error.name === "TooldockError" && typeof code === "string") {
      output.printError(
        `${output.errorColors.red(`tooldock ${name}:`)} ${escapeTerminalText(`${code}: ${error.message}`, { multiline: true })}`,
      );
      return 1;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    output.printError(
      `${output.errorColors.red("tooldock: internal error:")} ${detail}`,
      "This is a bug in tooldock or in its environment; please report it with the command you ran.",
    );
    return 2;
  }
}
