// Text from tool modules (labels, descriptions, results, error messages, file names) is shown
// on a terminal. Control sequences in it would be run by the terminal, not shown: a clear
// screen, an OSC title, an OSC 52 clipboard write, a cursor move that paints over a preview.

/** Options of {@link escapeTerminalText}. */
export interface EscapeTerminalTextOptions {
  /** Keep `\n` (and `\r\n`, as `\n`) and `\t`: text meant to span lines. Default false: one line. */
  multiline?: boolean;
}

// C0 controls, DEL, C1 controls, and the Unicode format characters that reorder or hide text
// (bidirectional overrides and isolates, the line and paragraph separators).
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it escapes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it escapes
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\e" };

function visible(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Makes untrusted text safe to print on a terminal: every control character is shown as a
 * visible escape (`ESC` as `\e`, BEL as `\x07`, a C1 CSI as `\x9b`, a bidirectional override
 * as `\u202e`) instead of being sent raw. With `multiline`, newlines and tabs stay (a `\r\n`
 * becomes `\n`; a bare `\r`, which would overwrite the line, is escaped). The CLI and
 * `formatDiagnostic` print tools' text through it; JSON output need not (JSON escapes
 * control characters itself).
 *
 * @example
 * escapeTerminalText("Rename\u001b]0;pwned\u0007"); // "Rename\\e]0;pwned\\x07"
 */
export function escapeTerminalText(text: string, options: EscapeTerminalTextOptions = {}): string {
  if (options.multiline) return text.replace(/\r\n/g, "\n").replace(CONTROL_BUT_LINES, visible);
  return text.replace(CONTROL, visible);
}
