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

/** One `tooldock` command. `run` resolves to the exit code (0, 1 or 2). */
export interface Command {
  spec: CommandSpec;
  run(context: CommandContext): Promise<number>;
}
