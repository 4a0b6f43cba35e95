/** One option of a command, as `node:util` `parseArgs` takes it plus what `--help` shows. */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** One line for `--help`. */
  description: string;
  /** Placeholder for the value in `--help` (`FILE`, `JSON`). */
  valueName?: string;
  /** Allowed values; anything else is bad usage. */
  choices?: readonly string[];
}

/** What a command accepts and how `--help` describes it. */
export interface CommandSpec {
  name: string;
  /** One line, shown in `tooldock --help`. */
  summary: string;
  /** The usage line, printed after bad usage and at the top of `--help`. */
  usage: string;
  /** Paragraphs shown by `--help` after the options. */
  details: readonly string[];
  options: Readonly<Record<string, OptionSpec>>;
  /** How many positional arguments are allowed. */
  positionals: { min: number; max: number };
}
