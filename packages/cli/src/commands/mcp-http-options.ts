import { fstatSync } from "node:fs";
import { flagOption, listOption, type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import type { ServeMcpHttpOptions } from "../mcp/http/serve-mcp-http.js";

/** The environment variable `tooldock mcp --http` reads its bearer token from, when `--token` is not given. */
export const MCP_TOKEN_ENV = "TOOLDOCK_MCP_TOKEN";

/** Options that mean something only with `--http`. */
const HTTP_ONLY_OPTIONS = ["port", "host", "token", "allow-host", "allow-origin", "idle-timeout"] as const;

/** The `--http` part of `tooldock mcp`'s options, checked. */
export type McpHttpOptions = Pick<
  ServeMcpHttpOptions,
  "host" | "port" | "token" | "allowHosts" | "allowOrigins" | "idleTimeoutMs"
>;

/**
 * Reads `--port`, `--host`, `--token` (else `$TOOLDOCK_MCP_TOKEN`), `--allow-host`,
 * `--allow-origin` and `--idle-timeout`; `undefined` without `--http`, where any of them is
 * bad usage.
 */
export function readMcpHttpOptions(
  args: ParsedArgs,
  env: Record<string, string | undefined>,
): McpHttpOptions | undefined {
  if (!flagOption(args, "http")) {
    for (const name of HTTP_ONLY_OPTIONS) {
      if (stringOption(args, name) !== undefined || listOption(args, name).length > 0)
        throw new UsageError(`--${name} needs --http`, "mcp");
    }
    return undefined;
  }
  const port = wholeNumber(stringOption(args, "port"), "--port", 0, 65_535);
  const idleTimeoutMs = wholeNumber(stringOption(args, "idle-timeout"), "--idle-timeout", 1, 2_147_483_647);
  const host = stringOption(args, "host");
  if (host === "") throw new UsageError("--host is empty; give an address such as 127.0.0.1", "mcp");
  const tokenSource = stringOption(args, "token") !== undefined ? "--token" : MCP_TOKEN_ENV;
  const token = stringOption(args, "token") ?? (env[MCP_TOKEN_ENV] || undefined);
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      `${tokenSource} must be printable ASCII without spaces (it is sent as Authorization: Bearer <token>)`,
      "mcp",
    );
  }
  return {
    host,
    port,
    token,
    allowHosts: listOption(args, "allow-host"),
    allowOrigins: listOption(args, "allow-origin"),
    idleTimeoutMs,
  };
}

/**
 * Whether file descriptor 0 is a pipe or a socket: then its end means the parent is gone and
 * the HTTP server stops, as the stdio server does. A terminal, a file or `/dev/null` (a
 * service manager's stdin) never stops it.
 */
export function stdinIsPipe(): boolean {
  try {
    const stats = fstatSync(0);
    return stats.isFIFO() || stats.isSocket();
  } catch {
    return false;
  }
}

function wholeNumber(text: string | undefined, name: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got "${text}")`, "mcp");
  return value;
}
