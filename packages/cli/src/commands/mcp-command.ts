import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Writable } from "node:stream";
import { TooldockError } from "@tooldock/sdk";
import { flagOption, listOption, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import type { CliIo } from "../cli-io.js";
import { isolatedActionsInProcess, readIsolation } from "../isolate/isolation-flags.js";
import { defaultToolPaths } from "../load/default-tool-paths.js";
import { serveMcp } from "../mcp/serve-mcp.js";
import { openStore } from "../store/open-store.js";
import { readStore } from "../store/store-option.js";
import { storedIsolation } from "../store/stored-isolation.js";
import type { CommandContext } from "./command.js";
import type { MCP_BUILTINS, MCP_PENDING_POLICIES, MCP_RESOLVE_LISTINGS } from "./command-specs.js";
import { readMcpHttpOptions, stdinIsPipe } from "./mcp-http-options.js";
import { readOpencode, toolPathArgs } from "./tool-path-options.js";

/**
 * Runs `tooldock mcp` (spec: `mcpSpec`): serves the tools over the Model Context Protocol on stdio until
 * the client goes away (stdin closes), SIGINT or SIGTERM; with `--http`, over Streamable HTTP
 * until SIGINT, SIGTERM or its stdin pipe closes. Exit code 0 after a clean stop.
 */
export async function run({ io, args }: CommandContext): Promise<number> {
  const http = readMcpHttpOptions(args, io.env, io.cwd);
  const flagged = readIsolation(args, io, "mcp", false);
  const cwd = await servingFolder(io.cwd, stringOption(args, "cwd"));
  const builtins = listOption(args, "builtin") as (typeof MCP_BUILTINS)[number][];
  const given = toolPathArgs(args);
  const paths = given.length > 0 ? given : await defaultPaths(cwd, builtins.length > 0, readOpencode(args));
  const stored = readStore(args, cwd, "mcp");
  if (stored !== undefined && http !== undefined)
    throw new UsageError(
      "--store serves one durable session over stdio; with --http each client gets a session of its own, which a client reconnecting to a restarted server cannot name",
      "mcp",
    );
  const opened = stored === undefined ? undefined : await openStore(stored);
  if (opened !== undefined && "error" in opened) {
    io.stderr.write(`tooldock mcp: ${opened.error}\n`);
    return 1;
  }
  const store = opened?.store;
  const isolation = await storedIsolation(flagged, args, io, "mcp", store, cwd);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const common = {
      paths,
      cwd,
      stderr: asWritable(io.stderr),
      signal: io.signal ? AbortSignal.any([io.signal, stop.signal]) : stop.signal,
      // The parser accepts only the spec's choices.
      resolve: stringOption(args, "resolve") as (typeof MCP_RESOLVE_LISTINGS)[number] | undefined,
      pendingPolicy: stringOption(args, "pending-policy") as
        | (typeof MCP_PENDING_POLICIES)[number]
        | undefined,
      builtins,
      watch: flagOption(args, "watch"),
      isolation,
      opencode: readOpencode(args),
    };
    if (http === undefined) {
      await serveMcp({
        ...common,
        stdin: process.stdin,
        stdout: asWritable(io.stdout),
        store,
        isolatedActionsInProcess: isolatedActionsInProcess(args),
      });
    } else {
      const { serveMcpHttp } = await import("../mcp/http/serve-mcp-http.js");
      await serveMcpHttp({
        ...common,
        ...http,
        stdin: io.stdout === process.stdout && stdinIsPipe() ? process.stdin : undefined,
      }).catch((error: unknown) => {
        if (TooldockError.isInstance(error) && error.code === "E_MCP_LISTEN")
          throw new UsageError(error.message, "mcp");
        throw error;
      });
    }
    // The client is gone and the session disposed; a tool may still hold the event loop (a
    // timer, a watcher): the executable exits after a short grace once the cache writes it
    // holds have settled (bin.ts), as after every command.
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await store?.journal.close();
  }
}

/** The default tool folders; none is fine when a built-in is served (`--builtin`). */
async function defaultPaths(cwd: string, servesBuiltin: boolean, opencode: boolean): Promise<string[]> {
  try {
    return await defaultToolPaths(cwd, "mcp", opencode);
  } catch (error) {
    if (servesBuiltin && error instanceof UsageError) return [];
    throw error;
  }
}

/** `--cwd` resolved against the current folder; a usage error unless it is a folder. */
async function servingFolder(current: string, given: string | undefined): Promise<string> {
  if (given === undefined) return current;
  const folder = resolve(current, given);
  const isFolder = await stat(folder).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (!isFolder)
    throw new UsageError(`--cwd ${given}: ${folder} is not a folder; give an existing folder`, "mcp");
  return folder;
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
