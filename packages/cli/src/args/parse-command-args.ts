import { parseArgs } from "node:util";
import type { CommandSpec, OptionSpec } from "./command-spec.js";
import { didYouMean } from "./did-you-mean.js";
import { UsageError } from "./usage-error.js";

/** Parsed arguments of one command. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** `--help` / `-h` was given: print help, ignore everything else. */
  help: boolean;
}

const helpOption: OptionSpec = { type: "boolean", short: "h", description: "Show this help" };

/** The first sentence of a `parseArgs` error, without Node's advice about `--`. */
function conciseMessage(error: Error): string {
  return error.message.split(/\. (?=To specify)/)[0]?.replace(/\.$/, "") ?? error.message;
}

/** For an unknown `--option`, the closest option of the command as a suggestion (or ""). */
function unknownOptionHint(error: Error, options: Record<string, OptionSpec>): string {
  const unknown = /Unknown option '--([^'=]+)/.exec(error.message)?.[1];
  return unknown === undefined ? "" : didYouMean(unknown, Object.keys(options), (name) => `--${name}`);
}

/**
 * Parses `argv` (after the command name) against a command's spec with `node:util`
 * `parseArgs` (strict). Unknown options, missing values, bad choices and a wrong number of
 * positional arguments throw {@link UsageError}.
 */
export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const options = { ...spec.options, help: helpOption };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(options).map(([name, option]) => [
          name,
          {
            type: option.type,
            ...(option.short === undefined ? {} : { short: option.short }),
            ...(option.multiple === undefined ? {} : { multiple: option.multiple }),
          },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // Only the user's mistakes (ERR_PARSE_ARGS_*) are bad usage; anything else is a bug here.
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) throw error;
    throw new UsageError(
      conciseMessage(error as Error) + unknownOptionHint(error as Error, options),
      spec.name,
    );
  }
  const values = parsed.values as ParsedArgs["values"];
  if (values.help === true) return { values, positionals: parsed.positionals, help: true };
  for (const [name, option] of Object.entries(spec.options)) {
    const value = values[name];
    if (option.choices === undefined || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && !option.choices.includes(item)) {
        throw new UsageError(
          `--${name} must be one of ${option.choices.join(", ")} (got "${item}")`,
          spec.name,
        );
      }
    }
  }
  const count = parsed.positionals.length;
  if (count < spec.positionals.min) {
    throw new UsageError(`missing argument: ${spec.name} needs at least ${spec.positionals.min}`, spec.name);
  }
  if (count > spec.positionals.max) {
    const extra = parsed.positionals.slice(spec.positionals.max);
    throw new UsageError(
      `unexpected ${extra.length === 1 ? "argument" : "arguments"}: ${extra.join(" ")}`,
      spec.name,
    );
  }
  return { values, positionals: parsed.positionals, help: false };
}

/** Reads a string option (the last one given). */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return Array.isArray(value) ? value.at(-1) : typeof value === "string" ? value : undefined;
}

/** Reads a repeatable string option as a list. */
export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

/** Reads a boolean flag. */
export function flagOption(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}
