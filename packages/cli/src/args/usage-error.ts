import { TooldockError } from "@tooldock/sdk";

/**
 * Bad usage: an unknown command or option, a missing argument, a value out of range. The CLI
 * prints the message and the command's usage line, and exits with 2.
 */
export class UsageError extends TooldockError {
  /** The command whose usage line to print; `undefined` for the top-level usage. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super("E_USAGE", message);
    this.name = "UsageError";
    this.command = command;
  }
}
