import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { flagOption, listOption, type ParsedArgs, stringOption } from "../args/parse-command-args.js";
import { UsageError } from "../args/usage-error.js";
import { hostnameOf } from "../mcp/http/request-guard.js";
import type { ServeMcpHttpOptions } from "../mcp/http/serve-mcp-http.js";

/** The environment variable `tooldock mcp --http` reads its bearer token from. */
export const MCP_TOKEN_ENV = "TOOLDOCK_MCP_TOKEN";

/** Options that mean something only with `--http`. */
const HTTP_ONLY_OPTIONS = [
  "port",
  "host",
  "token",
  "token-file",
  "allow-host",
  "allow-origin",
  "idle-timeout",
] as const;

/** The `--http` part of `tooldock mcp`'s options, checked. */
export type McpHttpOptions = Pick<
  ServeMcpHttpOptions,
  "host" | "port" | "token" | "allowHosts" | "allowOrigins" | "idleTimeoutMs"
>;

/**
 * Reads `--port`, `--host`, the token (`$TOOLDOCK_MCP_TOKEN`, `--token-file` or
 * `--no-token`), `--allow-host`, `--allow-origin` and `--idle-timeout`; `undefined` without
 * `--http`, where any of them is bad usage. `cwd` is where a relative `--token-file` is found.
 */
export function readMcpHttpOptions(
  args: ParsedArgs,
  env: Record<string, string | undefined>,
  cwd: string,
): McpHttpOptions | undefined {
  if (!flagOption(args, "http")) {
    for (const name of HTTP_ONLY_OPTIONS) {
      if (stringOption(args, name) !== undefined || listOption(args, name).length > 0)
        throw new UsageError(`--${name} needs --http`, "mcp");
    }
    if (flagOption(args, "no-token")) throw new UsageError("--no-token needs --http", "mcp");
    return undefined;
  }
  const port = wholeNumber(stringOption(args, "port"), "--port", 0, 65_535);
  const idleTimeoutMs = wholeNumber(stringOption(args, "idle-timeout"), "--idle-timeout", 1, 2_147_483_647);
  const host = stringOption(args, "host");
  if (host === "") throw new UsageError("--host is empty; give an address such as 127.0.0.1", "mcp");
  const token = readToken(args, env, cwd);
  return {
    host,
    port,
    token,
    allowHosts: listOption(args, "allow-host").map(checkAllowedHost),
    allowOrigins: listOption(args, "allow-origin").map(checkAllowedOrigin),
    idleTimeoutMs,
  };
}

/**
 * An `--allow-host`: a host name or an IP address, as a `Host` header names it without its
 * port. A value with a port, a scheme or a path would never match a request: refused.
 */
function checkAllowedHost(value: string): string {
  if (isIP(value.replace(/^\[(.*)\]$/, "$1")) === 6) return value;
  if (!value.includes(":") && hostnameOf(value) === value.toLowerCase()) return value;
  const port = /^([^:/]+):\d+$/.exec(value);
  throw new UsageError(
    `--allow-host ${JSON.stringify(value)} is not a host name: ${
      port !== null
        ? `give it without the port, --allow-host ${port[1]} (the server checks the name in the Host header, not its port)`
        : "give the name or address a client puts in the Host header, e.g. --allow-host box.lan"
    }`,
    "mcp",
  );
}

/**
 * An `--allow-origin`: `scheme://host[:port]` of a web page, as its `Origin` header names it.
 * A value without a scheme, or with a path, would never match a request: refused.
 */
function checkAllowedOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const web = url !== undefined && (url.protocol === "http:" || url.protocol === "https:");
  // Scheme, host and port alone (a default port is fine: the guard compares origins).
  if (web && url?.pathname === "/" && url.search === "" && url.hash === "" && url.username === "")
    return value;
  const suggestion = web ? url?.origin : `http://${value.replace(/^[a-z]+:\/\//i, "").replace(/\/.*$/, "")}`;
  throw new UsageError(
    `--allow-origin ${JSON.stringify(value)} is not an origin: give the scheme, host and port a page's Origin header names, e.g. --allow-origin ${JSON.stringify(suggestion)}`,
    "mcp",
  );
}

/**
 * The bearer token: `$TOOLDOCK_MCP_TOKEN`, the first line of `--token-file`, `false` for
 * `--no-token`, or `undefined` (the server generates one and prints it). Never from the
 * command line: `--token T` is refused, as every user of the machine can read a process's
 * arguments.
 */
function readToken(
  args: ParsedArgs,
  env: Record<string, string | undefined>,
  cwd: string,
): string | false | undefined {
  if (stringOption(args, "token") !== undefined) {
    throw new UsageError(
      "--token puts the secret on the command line, where every user of this machine can read it " +
        `(ps, /proc/<pid>/cmdline): set ${MCP_TOKEN_ENV}, or give --token-file FILE (a file only you can read)`,
      "mcp",
    );
  }
  const file = stringOption(args, "token-file");
  const fromEnv = env[MCP_TOKEN_ENV] || undefined;
  const none = flagOption(args, "no-token");
  const given = [
    ...(fromEnv === undefined ? [] : [`$${MCP_TOKEN_ENV}`]),
    ...(file === undefined ? [] : ["--token-file"]),
    ...(none ? ["--no-token"] : []),
  ];
  if (given.length > 1) throw new UsageError(`give one of ${given.join(" and ")}, not both`, "mcp");
  if (none) return false;
  if (fromEnv !== undefined) return checkedToken(fromEnv, `$${MCP_TOKEN_ENV}`);
  if (file === undefined) return undefined;
  return checkedToken(readTokenFile(resolve(cwd, file), file), `--token-file ${file}`);
}

/** The first line of a token file that only its owner, this user, can read. */
function readTokenFile(path: string, shown: string): string {
  let text: string;
  let fd: number | undefined;
  try {
    // Checked and read through one descriptor: a file swapped in between (in a folder another
    // user can write) is never the one read. Non-blocking, so a FIFO is refused, not waited on.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UsageError(`--token-file ${shown} is not a file`, "mcp");
    if ((stats.mode & 0o077) !== 0 || (process.getuid !== undefined && stats.uid !== process.getuid())) {
      throw new UsageError(
        `--token-file ${shown} can be read by other users (mode ${(stats.mode & 0o777).toString(8)}) or is ` +
          `not yours: run chmod 600 ${shown} (as its owner)`,
        "mcp",
      );
    }
    text = readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--token-file ${shown} cannot be read: ${(error as Error).message}`, "mcp");
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return text.split(/\r?\n/, 1)[0] ?? "";
}

function checkedToken(token: string, source: string): string {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      `${source} must be printable ASCII without spaces (it is sent as Authorization: Bearer <token>)`,
      "mcp",
    );
  }
  return token;
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
