import type { Logger } from "@tooldock/sdk";
import { escapeTerminalText } from "../output/terminal-text.js";

/**
 * A `pi.logger` that writes `[level] message data` lines to `stderr`, never to stdout, with
 * terminal control sequences escaped.
 */
export function createStderrLogger(stderr: { write(chunk: string): unknown }): Logger {
  const log = (level: string) => (message: string, data?: unknown) => {
    stderr.write(`${escapeTerminalText(`[${level}] ${logLine(message, data)}`, { multiline: true })}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** A log call as one line of text: the message, then its data as JSON (an error's stack). */
export function logLine(message: unknown, data?: unknown): string {
  return data === undefined ? text(message) : `${text(message)} ${stringify(data)}`;
}

function text(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "(a value that cannot be shown)";
  }
}

function stringify(data: unknown): string {
  if (data instanceof Error) return data.stack ?? data.message;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}
