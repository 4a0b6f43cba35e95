// Text from tool modules (labels, descriptions, results, error messages, file names) is shown
// on a terminal. Control sequences in it would be run by the terminal, not shown: a clear
// screen, an OSC title, an OSC 52 clipboard write, a cursor move that paints over a preview.

// escapeTerminalText lives in @tooldock/loader (its formatDiagnostic escapes with it): one
// implementation for the CLI and for hosts.
import { escapeTerminalText } from "@tooldock/loader";

export { type EscapeTerminalTextOptions, escapeTerminalText } from "@tooldock/loader";

// The SGR (colour and weight) sequences picocolors writes for the colours the CLI uses.
// Anything else that starts with ESC is escaped, including SGR 8 (hidden text).
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the sequences it keeps
const OWN_STYLE = /^\u001b\[(?:0|1|2|3|4|7|9|22|23|24|27|29|3[0-9]|4[0-9]|9[0-7]|10[0-7])m/;

/**
 * The last line of defence for lines the CLI prints: like {@link escapeTerminalText} with
 * `multiline`, except that the CLI's own colour sequences stay. The formatters escape the
 * text they take from tools already; this catches whatever reaches a printer another way.
 */
export function escapePrintedLine(line: string): string {
  let result = "";
  let start = 0;
  for (let index = line.indexOf("\u001b"); index !== -1; index = line.indexOf("\u001b", start)) {
    const style = OWN_STYLE.exec(line.slice(index, index + 8));
    result += escapeTerminalText(line.slice(start, index), { multiline: true });
    if (style === null) {
      result += "\\e";
      start = index + 1;
    } else {
      result += style[0];
      start = index + style[0].length;
    }
  }
  return result + escapeTerminalText(line.slice(start), { multiline: true });
}

// What JSON.stringify leaves raw but a terminal would act on or reorder.
const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value, null, 2)`, with DEL, the C1 controls and the bidirectional
 * characters written as `\uXXXX` escapes (JSON.stringify escapes only C0): the document parses
 * to the same value, and printing it on a terminal runs nothing.
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    JSON_RAW,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
