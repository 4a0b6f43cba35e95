import type { CommandSpec } from "../args/command-spec.js";
import type { ParsedArgs } from "../args/parse-command-args.js";
import type { CliIo } from "../cli-io.js";
import type { Output } from "../output/output.js";

/** What every command receives: the process seams, the printer and its parsed arguments. */
export interface CommandContext {
  io: CliIo;
  output: Output;
  args: ParsedArgs;
  version: string;
}

/** Runs a command; resolves to the exit code (0, 1 or 2). */
export type RunCommand = (context: CommandContext) => Promise<number>;

/** What a command's module exports: its `run`. */
export interface CommandModule {
  run: RunCommand;
}

/**
 * One `tooldock` command: its static spec (name, summary, usage, options and `--help` text) and
 * `load`, which imports the module that runs it. Only the command that runs is imported, so
 * `tooldock list` does not load the MCP server, and `--help` loads no command at all.
 */
export interface Command {
  spec: CommandSpec;
  load(): Promise<CommandModule>;
}
