import { Writable } from "node:stream";
import { flagOption, stringOption } from "../args/parse-command-args.js";
import type { CliIo } from "../cli-io.js";
import { defaultToolPaths } from "../load/default-tool-paths.js";
import { serveMcp } from "../mcp/serve-mcp.js";
import type { CommandContext } from "./command.js";
import type { MCP_RESOLVE_LISTINGS } from "./command-specs.js";
import { toolPathArgs } from "./tool-path-options.js";

/** How long a stopped server waits for the event loop to drain before it exits anyway. */
const EXIT_GRACE_MS = 1000;

/**
 * Runs `tooldock mcp` (spec: `mcpSpec`): serves the tools over the Model Context Protocol on stdio until
 * the client goes away (stdin closes), SIGINT or SIGTERM. Exit code 0 after a clean stop.
 */
export async function run({ io, args }: CommandContext): Promise<number> {
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
      watch: flagOption(args, "watch"),
      // The parser accepts only the spec's choices.
      resolve: stringOption(args, "resolve") as (typeof MCP_RESOLVE_LISTINGS)[number] | undefined,
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
}

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
