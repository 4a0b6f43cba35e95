import type { Logger } from "@tooldock/sdk";

/** A `pi.logger` that writes `[level] message data` lines to `stderr`, never to stdout. */
export function createStderrLogger(stderr: NodeJS.WritableStream): Logger {
  const log = (level: string) => (message: string, data?: unknown) => {
    const suffix = data === undefined ? "" : ` ${stringify(data)}`;
    stderr.write(`[${level}] ${message}${suffix}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function stringify(data: unknown): string {
  if (data instanceof Error) return data.stack ?? data.message;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}
