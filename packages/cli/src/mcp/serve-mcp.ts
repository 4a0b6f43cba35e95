import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadCustomTools, ToolHost } from "@tooldock/loader";
import { Session } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { createMcpServer } from "./create-mcp-server.js";
import { formatDiagnostic } from "./format-diagnostic.js";
import { type ReservedStdout, reserveStdout } from "./reserve-stdout.js";
import { createStderrLogger } from "./stderr-logger.js";

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
  /** Compiler of the tool modules (see `@tooldock/loader`). Default: the loader's, `"esbuild"`. */
  compiler?: "esbuild" | "jiti";
  /** Milliseconds a tool factory may take. Default: the loader's, `10000`. */
  factoryTimeoutMs?: number;
}

/** What {@link serveMcp} resolves to once the server has stopped. */
export interface ServeMcpResult {
  /** Names of the tools the session registered. */
  tools: string[];
  /** Every load diagnostic (also written to stderr as they were found). */
  diagnostics: Diagnostic[];
}

/**
 * `tooldock mcp`: loads tool modules into one session and serves it over MCP on stdio until
 * stdin closes, stdout breaks (the client went away) or `signal` aborts; then disposes the
 * session, which discards every pending action through its `reject`.
 *
 * Diagnostics go to stderr and never stop the server. While it runs, writes to
 * `process.stdout` by anyone but the protocol (a tool's `console.log`) are sent to stderr.
 */
export async function serveMcp(options: ServeMcpOptions): Promise<ServeMcpResult> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const cwd = options.cwd ?? process.cwd();
  const reserved: ReservedStdout | undefined =
    stdout === process.stdout ? reserveStdout(process.stdout, stderr) : undefined;

  const session = new Session({ cwd });
  try {
    const host = new ToolHost({ cwd, logger: createStderrLogger(stderr) });
    host.setActiveSession(session);
    const loaded = await loadCustomTools({
      paths: options.paths,
      cwd,
      host,
      session,
      ...(options.compiler ? { compiler: options.compiler } : {}),
      ...(options.factoryTimeoutMs !== undefined ? { factoryTimeoutMs: options.factoryTimeoutMs } : {}),
    });
    const diagnostics = [...loaded.diagnostics];
    for (const { tool, path } of loaded.tools) {
      if (session.get(tool.name) === tool) continue;
      try {
        session.register(tool, path);
      } catch (error) {
        stderr.write(`tooldock mcp: ${tool.name} from ${path} was not served: ${messageOf(error)}\n`);
      }
    }
    for (const diagnostic of diagnostics) stderr.write(formatDiagnostic(diagnostic));
    const tools = session.tools().map((tool) => tool.name);
    stderr.write(
      `tooldock mcp: serving ${loaded.tools.length} tool(s) from ${loaded.modules.length} module(s) on stdio\n`,
    );
    await session.start();

    const mcp = createMcpServer({
      session,
      onError: (error) => stderr.write(`tooldock mcp: ${messageOf(error)}\n`),
    });
    mcp.server.onerror = (error) => stderr.write(`tooldock mcp: protocol error: ${error.message}\n`);
    const stopped = whenStopped(stdin, stdout, options.signal);
    await mcp.connect(new StdioServerTransport(stdin, reserved?.protocol ?? stdout));
    await Promise.race([stopped.promise, mcp.closed]);
    stopped.dispose();
    await mcp.close();
    return { tools, diagnostics };
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

/** Settles when the client is gone: stdin ended or closed, stdout failed, or `signal` aborted. */
function whenStopped(stdin: Readable, stdout: Writable, signal: AbortSignal | undefined) {
  let stop = () => {};
  const promise = new Promise<void>((resolve) => {
    stop = resolve;
  });
  stdin.once("end", stop);
  stdin.once("close", stop);
  // Stays attached: a write that fails after the stop (EPIPE) must not crash the process.
  stdout.on("error", stop);
  signal?.addEventListener("abort", stop, { once: true });
  if (signal?.aborted) stop();
  return {
    promise,
    dispose() {
      stdin.off("end", stop);
      stdin.off("close", stop);
      signal?.removeEventListener("abort", stop);
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
