// The one place the CLI prints from. Commands build text; this module writes it.
import type { CliIo } from "../cli-io.js";
import { type Colors, colorEnabled, createColors } from "./colors.js";
import { createProgressLine, type ProgressLine } from "./progress-line.js";
import { escapePrintedLine, stringifyJson } from "./terminal-text.js";

/** Where the CLI prints: results on stdout, diagnostics, progress and usage errors on stderr. */
export interface Output {
  /** Colours for text bound for stdout. */
  readonly colors: Colors;
  /** Colours for text bound for stderr. */
  readonly errorColors: Colors;
  /** Prints lines on stdout; control sequences other than the CLI's own colours are escaped. */
  print(...lines: string[]): void;
  /** Prints lines on stderr, escaped like {@link Output.print}. */
  printError(...lines: string[]): void;
  /** Prints one JSON document on stdout (two-space indent, trailing newline; C1 controls as `\u` escapes). */
  printJson(value: unknown): void;
  /** Writes text to stdout as it is (XML, a file's contents). */
  write(text: string): void;
  /** A self-rewriting line on stderr; inert unless stderr is a terminal. */
  progress(): ProgressLine;
}

/** The {@link Output} of one run: colour decided per stream from `io` (TTY, `NO_COLOR`, `FORCE_COLOR`). */
export function createOutput(io: CliIo): Output {
  const colors = createColors(colorEnabled(io.stdout, io.env));
  const errorColors = createColors(colorEnabled(io.stderr, io.env));
  return {
    colors,
    errorColors,
    print: (...lines) => {
      io.stdout.write(lines.map((line) => `${escapePrintedLine(line)}\n`).join(""));
    },
    printError: (...lines) => {
      io.stderr.write(lines.map((line) => `${escapePrintedLine(line)}\n`).join(""));
    },
    printJson: (value) => {
      io.stdout.write(`${stringifyJson(value)}\n`);
    },
    write: (text) => {
      io.stdout.write(text);
    },
    progress: () => createProgressLine(io.stderr, errorColors),
  };
}
