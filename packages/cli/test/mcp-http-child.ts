import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { cliBin, watchStderr } from "./cli-process.js";
import { TEST_TOKEN } from "./mcp-http-in-process.js";

/** How long the server may take to load and print its URL. */
const START_DEADLINE_MS = 30_000;

/**
 * `tooldock mcp --http --port 0 <args>` (the built CLI) as a child process; resolves once it
 * printed its URL on stderr, with `TOOLDOCK_MCP_TOKEN` set to {@link TEST_TOKEN} unless `env`
 * gives another (or `""`, for none). `closeStdin` ends its stdin pipe (a parent that went away);
 * `exited` resolves to the exit code; `kill` is for cleanup.
 */
export async function startMcpHttpChild(args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cliBin, "mcp", "--http", "--port", "0", ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", TOOLDOCK_MCP_TOKEN: TEST_TOKEN, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const { stderr, stderrIncludes } = watchStderr(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL on stderr within ${START_DEADLINE_MS} ms:\n${stderr()}`)),
      START_DEADLINE_MS,
    );
    child.stderr.on("data", () => {
      const match = / on (http:\/\/\S+\/mcp)\n/.exec(stderr());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`tooldock mcp --http exited (${code}) before printing its URL:\n${stderr()}`));
    });
  });
  return {
    url,
    stderr,
    /** Resolves once stderr holds `text`. */
    stderrIncludes,
    exited,
    closeStdin: () => child.stdin.end(),
    signal: (name: NodeJS.Signals) => child.kill(name),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/**
 * The SDK's client over its Streamable HTTP transport, with `Authorization: Bearer` and
 * {@link TEST_TOKEN} unless `headers` gives another; `logs` collects `notifications/message` data.
 */
export async function connectHttpClient(url: string, given: Record<string, string> = {}) {
  const headers = { Authorization: `Bearer ${TEST_TOKEN}`, ...given };
  const client = new Client({ name: "http-e2e", version: "1.0.0" });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(String(notification.params.data));
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport, logs };
}
