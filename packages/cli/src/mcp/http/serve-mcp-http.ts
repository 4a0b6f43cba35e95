import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Readable, Writable } from "node:stream";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  type IsolationOptions,
  type LoadCustomToolsResult,
  loadCustomTools,
  reportSessionHookFailures,
  ToolHost,
  type ToolWatcher,
  watchCustomTools,
} from "@tooldock/loader";
import { type PendingPolicy, Session } from "@tooldock/runtime";
import { settledWithin } from "@tooldock/runtime/internal";
import type { UIContext } from "@tooldock/sdk";
import { DISCARD_BOUND_MS } from "../../call/run-tool-call.js";
import { waitForResolves } from "../../call/wait-for-resolves.js";
import { describeStrayFault, holdStrayFaults } from "../../faults/stray-faults.js";
import { BodyBudget, limitServer } from "../../http/body-budget.js";
import { isLoopbackHost, isWildcardHost, urlHost } from "../../http/local-address.js";
import { BUILT_IN_TOOL_NAMES } from "../../load/built-in-tools.js";
import { nothingToServe } from "../../load/nothing-found.js";
import { ToolHostGenerations } from "../../load/tool-host-generations.js";
import { createMcpLogger } from "../client-logger.js";
import { createMcpServer, type TooldockMcpServer } from "../create-mcp-server.js";
import {
  describeReload,
  describeReloadToClient,
  reloadChangedTools,
  reloadLogLevel,
} from "../describe-reload.js";
import { disposeServedSession } from "../dispose-served-session.js";
import { clientElicits, elicitationUI } from "../elicitation-ui.js";
import { createMcpStderr } from "../mcp-stderr.js";
import { messageOf } from "../message-of.js";
import { describeServed, type McpBuiltin, registerBuiltins } from "../register-builtins.js";
import type { ResolveListing } from "../resolve-listing.js";
import type { ServeMcpResult } from "../serve-mcp.js";
import { listen, replyError, stopped } from "./http-endpoint.js";
import { HttpSessionTable } from "./http-session-table.js";
import { allowedHostsFor, allowedOriginsFor, checkRequest, type RequestGuard } from "./request-guard.js";
import { MCP_HTTP_PATH, routeRequest } from "./route-request.js";
import { ServedTools } from "./served-tools.js";

/** The port of `tooldock mcp --http` without `--port`. */
export const DEFAULT_MCP_HTTP_PORT = 7717;
/** The address of `tooldock mcp --http` without `--host`: this machine only. */
export const DEFAULT_MCP_HTTP_HOST = "127.0.0.1";
/** How long a session may go without a connection before it is closed (30 minutes). */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** Options of {@link serveMcpHttp}. */
export interface ServeMcpHttpOptions {
  /** Tool modules, files or directories, relative to `cwd`. */
  paths: string[];
  /** Working directory of every session and the tools. Default: `process.cwd()`. */
  cwd?: string;
  /** Load diagnostics, tool logs, the URL and server faults. Default: `process.stderr`. */
  stderr?: Writable;
  /** Aborting stops the server. */
  signal?: AbortSignal;
  /** When given, the server stops once it ends or closes (a parent that closed its pipe). */
  stdin?: Readable;
  /** Address to listen on. Default {@link DEFAULT_MCP_HTTP_HOST}. */
  host?: string;
  /** Port to listen on; `0` picks a free one. Default {@link DEFAULT_MCP_HTTP_PORT}. */
  port?: number;
  /**
   * The bearer token every request must carry (`Authorization: Bearer <token>`). Default: one
   * generated for this run (32 random bytes) and printed on stderr. `false`: none, so every
   * user of this machine who reaches the port can run the tools (a warning says so).
   */
  token?: string | false;
  /** Hostnames accepted in `Host` besides localhost, 127.0.0.1, [::1] and `host`. */
  allowHosts?: readonly string[];
  /** Origins accepted in `Origin` besides the server's own (`http://localhost:<port>`, …). */
  allowOrigins?: readonly string[];
  /** A session without a connection for this long is closed, its pending actions discarded. Default {@link DEFAULT_IDLE_TIMEOUT_MS}. */
  idleTimeoutMs?: number;
  /** When `tools/list` includes `resolve` (see `createMcpServer`). Default: `"always"`. */
  resolve?: ResolveListing;
  /**
   * Watch the paths and reload the tools after each change (see `watchCustomTools`): new
   * sessions get the new tools, open ones are updated in place (pending actions kept) and
   * sent `notifications/tools/list_changed`. Default: false.
   */
  watch?: boolean;
  /** With `watch`: quiet time after the last change before a reload. Default: the loader's (100 ms). */
  debounceMs?: number;
  /** Each session's `pendingPolicy`. Default: `"block"`. */
  pendingPolicy?: PendingPolicy;
  /** Built-in tools each session serves besides the loaded ones (`--builtin ast_edit`). Default: none. */
  builtins?: readonly McpBuiltin[];
  /**
   * Load the modules in one tool host (`--isolate`, see the loader's `IsolationOptions`) whose
   * proxies every session serves; it stops with the server. Default: in-process.
   */
  isolation?: IsolationOptions;
  /**
   * Load opencode custom tools too (`--opencode`, the loader's `opencode`): `tool({ description,
   * args, execute })` exports, and `.opencode/tool(s)/*.{js,ts}` of a project root; with
   * `watch`, every reload too. Default: false.
   */
  opencode?: boolean;
}

/** One MCP session of the HTTP server: its own Tooldock session, server and transport. */
interface Served {
  id: string;
  session: Session;
  mcp: TooldockMcpServer;
  transport: StreamableHTTPServerTransport;
  /** `pi.ui` for this session's calls, made when its client first turns out to elicit. */
  ui?: UIContext;
}

/**
 * `tooldock mcp --http`: loads the tool modules once and serves them over MCP's Streamable
 * HTTP transport at `http://<host>:<port>/mcp` until `signal` aborts or `stdin` closes. Each
 * MCP session (each `initialize`) gets a `Session` of its own, with the loaded tools, its
 * own pending stack and tool list; a session the client ends (`DELETE`), one idle for
 * `idleTimeoutMs`, and every session at shutdown is disposed, which discards its pending
 * actions through their `reject`.
 *
 * Every request is checked first ({@link checkRequest}): its `Host` must name this server
 * (DNS rebinding), its `Origin`, when it has one, must be allowed (web pages), and it must
 * carry the token (unless `token` is `false`). The URL is printed on stderr once listening,
 * and a generated token with it.
 *
 * @example
 * await serveMcpHttp({ paths: ["./tools"], port: 0, signal }); // resolves once signal aborts
 */
export async function serveMcpHttp(options: ServeMcpHttpOptions): Promise<ServeMcpResult> {
  const stderr = options.stderr ?? process.stderr;
  const cwd = options.cwd ?? process.cwd();
  const hostname = options.host ?? DEFAULT_MCP_HTTP_HOST;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  // Another user of this machine reaches loopback too: a token unless one was refused outright.
  const token =
    options.token === undefined
      ? randomBytes(32).toString("base64url")
      : options.token === false
        ? undefined
        : options.token;
  const { say, writeDiagnostics } = createMcpStderr(stderr, cwd);
  const closing = new Set<Promise<void>>();
  /** Every session made, from its initialize until it is closed (reloads reach them all). */
  const live = new Set<Served>();
  /** Set when shutdown begins: requests still arriving on open connections are refused. */
  let stopping = false;
  const closeServed = (served: Served, why: string) => {
    live.delete(served);
    const done = closeSession(served, why, say, stopping).finally(() => closing.delete(done));
    closing.add(done);
  };
  let watcher: ToolWatcher | undefined;
  let reference: Session | undefined;
  const sessions = new HttpSessionTable<Served>(idleTimeoutMs, (_id, served) =>
    closeServed(served, `idle for ${idleTimeoutMs} ms without a connection; closing it`),
  );
  /** The served session whose tool call is running (`sessionId` from the call), if any. */
  const servedBy = (sessionId: string | undefined): Served | undefined =>
    sessionId === undefined ? undefined : [...live].find((served) => served.session.id === sessionId);
  const releaseFaults = holdStrayFaults((fault) => {
    const text = `${describeStrayFault(fault)}\n(reported; the server goes on)`;
    say(text);
    // To the client whose call left the code running, and to no other: the error may carry
    // that call's arguments. A fault no call started goes to stderr alone.
    servedBy(fault.call?.sessionId)?.mcp.log("error", text);
  });
  let server: Server | undefined;
  // A stopped tool host is the server's to report (every client's tools ran there): stderr.
  const toolHosts = new ToolHostGenerations(({ text, diagnostics }) => {
    say(text);
    writeDiagnostics(diagnostics);
  });
  try {
    // A line logged during a call goes to that session's client alone (it may carry the call's
    // arguments); one logged outside any call, to stderr only.
    const host = new ToolHost({
      cwd,
      logger: createMcpLogger(stderr, (sessionId) => {
        const served = servedBy(sessionId);
        return served === undefined ? [] : [served.mcp];
      }),
      // A call's pi.ui asks its own session's client, when that client elicits; none else.
      ui: (sessionId) => {
        const served = servedBy(sessionId);
        if (served === undefined || !clientElicits(served.mcp)) return undefined;
        served.ui ??= elicitationUI(served.mcp);
        return served.ui;
      },
    });
    const load = {
      paths: options.paths,
      cwd,
      host,
      builtInToolNames: [...BUILT_IN_TOOL_NAMES],
      ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
      opencode: options.opencode === true,
    };
    const tools = new ServedTools([]);
    let loaded: LoadCustomToolsResult;
    if (options.watch === true) {
      // The watcher keeps a session of its own, never served: its changes leave a module that
      // failed to reload with its previous tools, and ServedTools carries them to every session.
      reference = new Session({ cwd });
      watcher = await watchCustomTools({
        ...load,
        session: reference,
        debounceMs: options.debounceMs,
        onReload: (reload) => {
          // A push outside any call must not land in the session nobody is served.
          host.setActiveSession(undefined);
          writeDiagnostics(reload.diagnostics);
          say(describeReload(reload));
          const text = describeReloadToClient(reload, cwd);
          const swapped = tools.update(reload);
          const level = reloadLogLevel(reload);
          for (const served of live) {
            tools.sync(served.session, reload, swapped);
            served.mcp.log(level, text);
            if (reloadChangedTools(reload)) served.mcp.toolsChanged();
          }
          toolHosts.add(reload);
        },
        onError: (error) => say(error.message),
      });
      host.setActiveSession(undefined);
      loaded = watcher.initial;
    } else {
      loaded = await loadCustomTools(load);
    }
    toolHosts.add(loaded);
    tools.update({ ...loaded, changedPaths: [] });
    writeDiagnostics(loaded.diagnostics);
    const opencode = options.opencode === true;
    for (const line of await nothingToServe(loaded, options.paths, { cwd, opencode })) say(line);

    const openSession = async (): Promise<Served> => {
      const session = new Session({ cwd, pendingPolicy: options.pendingPolicy });
      const current = tools.list();
      for (const { tool, path } of current) session.register(tool, path);
      registerBuiltins(session, options.builtins ?? [], cwd);
      reportSessionHookFailures(session, current, (diagnostic) => writeDiagnostics([diagnostic]));
      const mcp = createMcpServer({
        session,
        resolve: options.resolve,
        onError: (error) => say(messageOf(error)),
      });
      const served: Served = { id: "", session, mcp, transport: undefined as never };
      // Live before its tools' onSession hooks run, so a reload meanwhile reaches it too.
      live.add(served);
      await session.start();
      served.transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          served.id = id;
          sessions.add(id, served);
          say(`session ${shortId(id)}: opened (${sessions.size} open)`);
        },
        onsessionclosed: (id) => {
          if (sessions.delete(id) !== undefined) closeServed(served, "ended by the client");
        },
      });
      mcp.server.onerror = (error) =>
        say(`session ${shortId(served.id)}: protocol error: ${messageOf(error)}`);
      await mcp.connect(served.transport);
      return served;
    };

    let guard: RequestGuard | undefined;
    const bodies = new BodyBudget();
    server = createServer((request, response) => {
      const routing =
        guard === undefined
          ? Promise.resolve(replyError(response, 503, -32000, "Service Unavailable: starting"))
          : routeRequest(request, response, {
              guard,
              sessions,
              bodies,
              openCount: () => live.size,
              openSession,
              closeServed,
              stopping: () => stopping,
            });
      routing.catch((error: unknown) => {
        say(`a request failed: ${messageOf(error)}`);
        if (!response.headersSent) replyError(response, 500, -32603, "Internal error");
        else response.destroy();
      });
    });
    limitServer(server);
    const port = await listen(server, options.port ?? DEFAULT_MCP_HTTP_PORT, hostname);
    guard = {
      allowedHosts: allowedHostsFor(hostname, options.allowHosts ?? []),
      allowedOrigins: allowedOriginsFor(hostname, port, options.allowOrigins ?? []),
      ...(token === undefined ? {} : { token }),
    };
    // A wildcard address is no host a client can name (and not an allowed Host): show loopback.
    const wildcard = isWildcardHost(hostname);
    const shownHost = !wildcard ? urlHost(hostname) : hostname === "0.0.0.0" ? "127.0.0.1" : "[::1]";
    const url = `http://${shownHost}:${port}${MCP_HTTP_PATH}`;
    // Before the URL: whoever waits for the URL has the token (or the warning) by then.
    if (options.token === undefined) {
      say(
        `every request needs the header "Authorization: Bearer ${token}" (a token made for this run; ` +
          "set TOOLDOCK_MCP_TOKEN or --token-file to choose one that outlives it)",
      );
    } else if (options.token === false) {
      say(
        isLoopbackHost(hostname)
          ? "warning: serving without a token (--no-token): every user of this machine can run the tools, " +
              "with your rights; do so only where nobody else has an account"
          : `warning: listening on ${hostname} without a token (--no-token): anyone who reaches this port can ` +
              "run the tools, with your rights; set TOOLDOCK_MCP_TOKEN or listen on 127.0.0.1",
      );
    }
    say(`serving ${describeServed(loaded, options.builtins)} on ${url}`);
    if (wildcard) {
      say(
        `listening on every address (${hostname}): other machines use this one's name or address, ` +
          "which each needs an --allow-host (the Host header is checked)",
      );
    }
    await stopped(options.signal, options.stdin);
    return { tools: loaded.tools.map(({ tool }) => tool.name), diagnostics: loaded.diagnostics };
  } finally {
    stopping = true;
    server?.close();
    // No reload from here on, but the tool hosts stay until the sessions are disposed:
    // discarding what is pending runs each action's reject in its tool host.
    await watcher?.stop();
    for (const served of sessions.deleteAll()) closeServed(served, "the server is stopping");
    for (const served of live) closeServed(served, "the server is stopping");
    await Promise.all([...closing]);
    await reference?.dispose();
    await watcher?.close();
    await toolHosts.close();
    server?.closeAllConnections();
    releaseFaults();
  }
}

/** Disposes a session (pending actions discarded through `reject`), then closes its transport. */
async function closeSession(
  served: Served,
  why: string,
  say: (text: string) => void,
  stopping: boolean,
): Promise<void> {
  const prefix = `session ${shortId(served.id)}: `;
  if (served.id !== "") say(`${prefix}${why}`);
  await waitForResolves(served.mcp.resolving(), (text) => say(`${prefix}${text}`), undefined, { stopping });
  await disposeServedSession(served.session, say, { prefix });
  await settledWithin(served.mcp.close(), DISCARD_BOUND_MS);
}

/** The first 8 characters of a session id: enough to tell sessions apart on stderr, not enough to use one. */
function shortId(id: string): string {
  return id === "" ? "(new)" : id.slice(0, 8);
}
