import { Writable } from "node:stream";
import type { CliIo } from "../cli-io.js";
import { defaultToolPaths } from "../load/default-tool-paths.js";
import { serveMcp } from "../mcp/serve-mcp.js";
import type { Command } from "./command.js";
import { DEFAULT_PATHS_HELP, toolPathArgs, toolsOption } from "./tool-path-options.js";

/** How long a stopped server waits for the event loop to drain before it exits anyway. */
const EXIT_GRACE_MS = 1000;

/**
 * `tooldock mcp [paths…]`: serves the tools over the Model Context Protocol on stdio until
 * the client goes away (stdin closes), SIGINT or SIGTERM. Exit code 0 after a clean stop.
 */
export const mcpCommand: Command = {
  spec: {
    name: "mcp",
    summary: "Serve the tools to an MCP client over stdio, pending actions included",
    usage: "tooldock mcp [paths…] [--tools PATH]…",
    details: [
      DEFAULT_PATHS_HELP,
      "Stdout carries the protocol only; load diagnostics, tool logs and anything a tool prints go to " +
        "stderr. A module that fails to load is reported and skipped.",
      "A tool that stages a pending action returns its preview; `resolve` then appears in the tool list " +
        "and other tools are refused until it applies or discards the action. Pending actions are " +
        "discarded when the client disconnects.",
      'Register it with a client: { "mcpServers": { "tooldock": { "command": "npx", "args": ["tooldock", ' +
        '"mcp", "./tools"] } } }',
    ],
    options: { tools: toolsOption },
    positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  },
  async run({ io, args }) {
    const given = toolPathArgs(args);
    const paths = given.length > 0 ? given : await defaultToolPaths(io.cwd, "mcp");
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      await serveMcp({
        paths,
        cwd: io.cwd,
        stdin: process.stdin,
        stdout: asWritable(io.stdout),
        stderr: asWritable(io.stderr),
        signal: io.signal ? AbortSignal.any([io.signal, stop.signal]) : stop.signal,
      });
      // The client is gone and the session disposed, but a tool may still hold the event loop
      // (a timer, a watcher): a server nobody talks to must not linger, so exit regardless
      // once a short grace period passes. The timer is unref'd: a clean process exits at once.
      if (io.stdout === process.stdout) setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
      return 0;
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  },
};

/** The process's own streams as they are; a test double wrapped in a Writable. */
function asWritable(stream: CliIo["stdout"]): Writable {
  if (stream instanceof Writable) return stream;
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      stream.write(chunk.toString());
      callback();
    },
  });
}
