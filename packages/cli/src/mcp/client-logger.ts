import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { runningToolCall } from "@tooldock/runtime";
import type { Logger } from "@tooldock/sdk";
import type { TooldockMcpServer } from "./create-mcp-server.js";
import { createStderrLogger, logLine } from "./stderr-logger.js";

const LEVELS: Readonly<Record<keyof Omit<Logger, "time">, LoggingLevel>> = {
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

/**
 * The `pi.logger` of `tooldock mcp`: every line goes to stderr as before, and to MCP clients
 * as a `notifications/message` (`warn` as `warning`; the logger named after the calling tool,
 * else `tooldock`), at the level each client asked for (`logging/setLevel`). `clients(sessionId)`
 * names who hears it: the id is the session whose tool call is running, `undefined` outside
 * any call (a factory, an `onSession` hook, a tool host's log line).
 */
export function createMcpLogger(
  stderr: NodeJS.WritableStream,
  clients: (sessionId: string | undefined) => Iterable<TooldockMcpServer>,
): Logger {
  const local = createStderrLogger(stderr);
  const forward =
    (level: keyof typeof LEVELS) =>
    (message: string, data?: unknown): void => {
      local[level](message, data);
      const call = runningToolCall();
      const line = logLine(message, data);
      for (const client of clients(call?.sessionId))
        client.log(LEVELS[level], line, call?.toolName ?? "tooldock");
    };
  return { debug: forward("debug"), info: forward("info"), warn: forward("warn"), error: forward("error") };
}
