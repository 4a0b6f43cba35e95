import type { CommandSpec, OptionSpec } from "./command-spec.js";

const helpOption: OptionSpec = { type: "boolean", short: "h", description: "Show this help" };

/** Breaks a paragraph into lines of at most `width` characters, at spaces. */
export function wrap(paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return line ? [...lines, line] : lines;
}

/**
 * One paragraph of a command's details as help lines: each line of it wrapped at `width`,
 * except lines indented by two spaces (an example command, a JSON configuration), which are
 * printed whole so they can be copied.
 */
export function formatParagraph(paragraph: string, width: number): string[] {
  return paragraph.split("\n").flatMap((line) => (line.startsWith("  ") ? [line] : wrap(line, width)));
}

/**
 * The `--help` text of one command: usage, summary, options (aligned) and details (see
 * {@link formatParagraph}).
 */
export function formatCommandHelp(spec: CommandSpec): string[] {
  const options = Object.entries({ ...spec.options, help: helpOption }).map(([name, option]) => {
    const flag = `${option.short ? `-${option.short}, ` : "    "}--${name}${option.type === "string" ? ` ${option.valueName ?? "VALUE"}` : ""}`;
    const choices = option.choices ? `: ${option.choices.join(" | ")}` : "";
    const repeat = option.multiple ? " (repeatable)" : "";
    return [flag, `${option.description}${choices}${repeat}`] as const;
  });
  const width = Math.max(...options.map(([flag]) => flag.length));
  return [
    `Usage: ${spec.usage}`,
    "",
    spec.summary,
    "",
    "Options:",
    ...options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(spec.details.length > 0
      ? [
          "",
          ...spec.details.flatMap((paragraph, index) => [
            ...(index > 0 ? [""] : []),
            ...formatParagraph(paragraph, 100),
          ]),
        ]
      : []),
  ];
}

/** `tooldock --help`: the command list and global flags. */
export function formatMainHelp(specs: readonly CommandSpec[], version: string): string[] {
  const width = Math.max(...specs.map((spec) => spec.name.length));
  return [
    `tooldock ${version}: load, check and run Tooldock custom tools`,
    "",
    "Usage: tooldock <command> [options]",
    "",
    "Commands:",
    ...specs.map((spec) => `  ${spec.name.padEnd(width)}  ${spec.summary}`),
    "",
    "Global options:",
    "  -h, --help     Show help (also after a command: tooldock validate --help)",
    "  -v, --version  Print the version",
    "",
    "Exit codes: 0 fine, 1 a contract error or a tool error result, 2 bad usage or an internal fault.",
  ];
}
