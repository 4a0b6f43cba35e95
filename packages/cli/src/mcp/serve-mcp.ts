import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadCustomTools, ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import { createColors } from "../output/colors.js";
import { formatDiagnostics } from "../output/format-diagnostics.js";
import { createMcpServer } from "./create-mcp-server.js";
import { reserveStdout } from "./reserve-stdout.js";
import { createStderrLogger } from "./stderr-logger.js";
import { whenClientGone } from "./when-client-gone.js";

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions {
  /** Tool modules, files or directories, relative to `cwd`. */
  paths: string[];
  /** Working directory of the session and the tools. Default: `process.cwd()`. */
  cwd?: string;
  /** Where protocol messages come from. Default: `process.stdin`. */
  stdin?: Readable;
  /** Where protocol messages go; nothing else is written to it. Default: `process.stdout`. */
  stdout?: Writable;
  /** Load diagnostics, tool logs and server faults. Default: `process.stderr`. */
  stderr?: Writable;
  /** Aborting stops the server as if stdin had closed. */
  signal?: AbortSignal;
}

/** What {@link serveMcp} resolves to once the server has stopped. */
export interface ServeMcpResult {
  /** Names of the tools that loaded and were served. */
  tools: string[];
  /** Every load diagnostic (also written to stderr). */
  diagnostics: Diagnostic[];
}

/**
 * `tooldock mcp`: loads tool modules into one session and serves it over MCP on stdio until
 * the client is gone (stdin closes, stdout breaks) or `signal` aborts; then disposes the
 * session, which discards every pending action through its `reject`.
 *
 * Diagnostics go to stderr and never stop the server. When `stdout` is `process.stdout`,
 * writes to it by anyone but the protocol (a tool's `console.log`) go to stderr meanwhile.
 *
 * @example
 * await serveMcp({ paths: ["./tools"] }); // resolves when the client disconnects
 */
export async function serveMcp(options: ServeMcpOptions): Promise<ServeMcpResult> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const cwd = options.cwd ?? process.cwd();
  const reserved = stdout === process.stdout ? reserveStdout(process.stdout, stderr) : undefined;
  const session = new Session({ cwd });
  try {
    const host = new ToolHost({ cwd, logger: createStderrLogger(stderr) });
    host.setActiveSession(session);
    const loaded = await loadCustomTools({
      paths: options.paths,
      cwd,
      host,
      session,
      builtInToolNames: [...BUILT_IN_TOOL_NAMES],
    });
    if (loaded.diagnostics.length > 0) {
      stderr.write(`${formatDiagnostics(loaded.diagnostics, createColors(false), cwd).join("\n")}\n`);
    }
    stderr.write(
      `tooldock mcp: serving ${loaded.tools.length} tool(s) from ${loaded.modules.length} module(s) on stdio\n`,
    );
    await session.start();

    const mcp = createMcpServer({
      session,
      onError: (error) => stderr.write(`tooldock mcp: ${messageOf(error)}\n`),
    });
    mcp.server.onerror = (error) => stderr.write(`tooldock mcp: protocol error: ${error.message}\n`);
    const gone = whenClientGone(stdin, stdout, options.signal);
    await mcp.connect(new StdioServerTransport(stdin, reserved?.protocol ?? stdout));
    await Promise.race([gone.promise, mcp.closed]);
    gone.dispose();
    await mcp.close();
    return { tools: loaded.tools.map(({ tool }) => tool.name), diagnostics: loaded.diagnostics };
  } finally {
    const pending = session.pending.list();
    if (pending.length > 0) {
      const labels = pending.map((record) => record.label).join("; ");
      stderr.write(`tooldock mcp: discarding ${pending.length} pending action(s): ${labels}\n`);
    }
    await session.dispose();
    reserved?.release();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
