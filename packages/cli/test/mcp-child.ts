import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type ClientCapabilities,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { cliBin, watchStderr } from "./cli-process.js";

/**
 * `tooldock mcp <paths>` (the built CLI) as a child process with piped stdio, and an MCP
 * client over those pipes (the server transport speaks the same newline-delimited JSON, so
 * reading the child's stdout and writing its stdin makes it a client transport). `closeStdin`
 * is how a client goes away; `exited` resolves to the exit code; `kill` is for cleanup. The
 * client declares `capabilities`, and `beforeConnect` may set its handlers first.
 */
export async function startMcpChild(
  paths: string[],
  cwd: string,
  env: Record<string, string> = {},
  options: { capabilities?: ClientCapabilities; beforeConnect?: (client: Client) => void } = {},
) {
  const child = spawn(process.execPath, [cliBin, "mcp", ...paths], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const { stderr, stderrIncludes } = watchStderr(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stderrEnded = new Promise<void>((resolve) => child.stderr.once("end", () => resolve()));
  const logs: string[] = [];
  const entries: Array<{ level: string; logger?: string; data: unknown }> = [];
  const client = new Client(
    { name: "regression", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(String(notification.params.data));
    entries.push(notification.params);
  });
  options.beforeConnect?.(client);
  await client.connect(new StdioServerTransport(child.stdout, child.stdin));
  return {
    client,
    /** `notifications/message` data received so far. */
    logs,
    /** The same notifications whole: `level`, `logger`, `data`. */
    entries,
    stderr,
    /** Resolves once stderr holds `text` (it may come after what stdout carried). */
    stderrIncludes,
    exited,
    /** Settles once all of stderr was read (after the exit): for what it must not say. */
    stderrEnded,
    closeStdin: () => child.stdin.end(),
    /** Sends `name` to the server (an operator's SIGTERM). */
    signal: (name: NodeJS.Signals) => child.kill(name),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
