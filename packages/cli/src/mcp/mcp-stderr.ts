import type { Writable } from "node:stream";
import type { Diagnostic } from "@tooldock/sdk";
import { createColors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { escapeTerminalText } from "../output/terminal-text.js";

/** What `tooldock mcp` (stdio or HTTP) writes to stderr besides the tools' own logs. */
export interface McpStderr {
  /** One `tooldock mcp: <text>` message, terminal control sequences escaped. */
  say(text: string): void;
  /** Load diagnostics, formatted without colors, paths relative to `cwd`; nothing when empty. */
  writeDiagnostics(diagnostics: readonly Diagnostic[]): void;
}

/** The {@link McpStderr} of a server whose tools are loaded relative to `cwd`. */
export function createMcpStderr(stderr: Writable, cwd: string): McpStderr {
  return {
    say: (text) => {
      stderr.write(`tooldock mcp: ${escapeTerminalText(text, { multiline: true })}\n`);
    },
    writeDiagnostics: (diagnostics) => {
      if (diagnostics.length > 0)
        stderr.write(`${formatDiagnostics([...diagnostics], createColors(false), cwd).join("\n")}\n`);
    },
  };
}
