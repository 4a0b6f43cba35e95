import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type IsolationOptions,
  type LoadCustomToolsResult,
  loadCustomTools,
  reportSessionHookFailures,
  ToolHost,
  type ToolWatcher,
  watchCustomTools,
} from "@tooldock/loader";
import type { IsolatedActionsInProcess, PendingPolicy } from "@tooldock/runtime";
import { count, settledWithin } from "@tooldock/runtime/internal";
import type { Diagnostic } from "@tooldock/sdk";
import { DISCARD_BOUND_MS } from "../call/run-tool-call.js";
import { waitForResolves } from "../call/wait-for-resolves.js";
import { describeStrayFault, holdStrayFaults } from "../faults/stray-faults.js";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import { nothingToServe } from "../load/nothing-found.js";
import { ToolHostGenerations } from "../load/tool-host-generations.js";
import { reserveStdout } from "../output/reserve-stdout.js";
import { type OpenStore, openSession } from "../store/open-store.js";
import { pendingCommand } from "../store/store-option.js";
import { createMcpLogger } from "./client-logger.js";
import { createMcpServer, type TooldockMcpServer } from "./create-mcp-server.js";
import {
  describeReload,
  describeReloadToClient,
  reloadChangedTools,
  reloadLogLevel,
} from "./describe-reload.js";
import { disposeServedSession } from "./dispose-served-session.js";
import { clientElicits, elicitationUI } from "./elicitation-ui.js";
import { createMcpStderr } from "./mcp-stderr.js";
import { messageOf } from "./message-of.js";
import { describeServed, type McpBuiltin, registerBuiltins } from "./register-builtins.js";
import { replyToBadMessages } from "./reply-to-bad-messages.js";
import type { ResolveListing } from "./resolve-listing.js";
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
  /**
   * Watch the paths and reload the tools into the same session after each change, then send
   * `notifications/tools/list_changed` (see `watchCustomTools`). Default: false.
   */
  watch?: boolean;
  /** With `watch`: quiet time after the last change before a reload. Default: the loader's (100 ms). */
  debounceMs?: number;
  /**
   * When `tools/list` includes `resolve` (see `createMcpServer`): `"always"` from the start,
   * `"pending"` only while an action is pending (for clients that list again on
   * `notifications/tools/list_changed`). Default: `"always"`.
   */
  resolve?: ResolveListing;
  /** The session's `pendingPolicy`: whether other tools are refused while an action is pending. Default: `"block"`. */
  pendingPolicy?: PendingPolicy;
  /** Built-in tools to serve besides the loaded ones (`--builtin ast_edit`). Default: none. */
  builtins?: readonly McpBuiltin[];
  /**
   * Load the modules in a tool host (`--isolate`, see the loader's `IsolationOptions`): the
   * session serves its proxies; the tool host stops with the server. Default: in-process.
   */
  isolation?: IsolationOptions;
  /**
   * Load opencode custom tools too (`--opencode`, the loader's `opencode`): `tool({ description,
   * args, execute })` exports, and `.opencode/tool(s)/*.{js,ts}` of a project root; with
   * `watch`, every reload too. Default: false.
   */
  opencode?: boolean;
  /**
   * Serve a session of a durable store (`--store`): `sessionId` of `journal`, its actions read
   * back; when the client is gone, the durable actions stay there. The caller closes the journal.
   */
  store?: OpenStore | undefined;
  /**
   * The session's `isolatedActionsInProcess` (`--no-isolate`: `"run"`): whether the handlers of
   * tools loaded in this process may resolve an action a tool staged in a tool host. Default:
   * the runtime's, `"refuse"`.
   */
  isolatedActionsInProcess?: IsolatedActionsInProcess;
}

/** What {@link serveMcp} resolves to once the server has stopped. */
export interface ServeMcpResult {
  /** Names of the tools that loaded and were served (with `watch`, those of the first load). */
  tools: string[];
  /** Every load diagnostic (also written to stderr). */
  diagnostics: Diagnostic[];
}

/**
 * `tooldock mcp`: loads tool modules into one session and serves it over MCP on stdio until
 * the client is gone (stdin closes, stdout breaks) or `signal` aborts; then disposes the
 * session, which discards every pending action through its `reject` (waiting at most
 * {@link DISCARD_BOUND_MS}: a callback that never settles cannot keep the server up).
 *
 * Diagnostics go to stderr and never stop the server. When `stdout` is `process.stdout`,
 * writes to it by anyone but the protocol (a tool's `console.log`) go to stderr meanwhile.
 * While it serves, an exception or rejection nobody handles (a tool's timer that throws after
 * its call returned) does not end the process: it is written to stderr and sent to the client
 * as a `notifications/message` log entry, and the server goes on.
 *
 * With `watch`, the paths are watched (`watchCustomTools`): after a change the tools are
 * loaded again into the same session, so pending actions survive; the reload's summary and
 * diagnostics go to stderr (and the client's log), and `notifications/tools/list_changed`
 * tells the client to list the tools again.
 *
 * @example
 * await serveMcp({ paths: ["./tools"] }); // resolves when the client disconnects
 */
export async function serveMcp(options: ServeMcpOptions): Promise<ServeMcpResult> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const cwd = options.cwd ?? process.cwd();
  const { say, writeDiagnostics } = createMcpStderr(stderr, cwd);
  let mcp: TooldockMcpServer | undefined;
  const releaseFaults = holdStrayFaults((fault) => {
    const text = `${describeStrayFault(fault)}\n(reported; the server goes on)`;
    say(text);
    mcp?.log("error", text);
  });
  const { store } = options;
  // Before anything that needs undoing: a store that cannot be read stops the server here.
  const session = await openSession(
    { cwd, pendingPolicy: options.pendingPolicy, isolatedActionsInProcess: options.isolatedActionsInProcess },
    store,
  );
  const reserved = stdout === process.stdout ? reserveStdout(process.stdout, stderr) : undefined;
  let watcher: ToolWatcher | undefined;
  const toolHosts = new ToolHostGenerations(({ text, diagnostics }) => {
    say(text);
    writeDiagnostics(diagnostics);
    mcp?.log("warning", [text, ...diagnostics.map((diagnostic) => diagnostic.message)].join("\n"));
  });
  try {
    // One client: it hears every line of the tools' pi.logger, during calls or not.
    const host = new ToolHost({
      cwd,
      logger: createMcpLogger(stderr, () => (mcp === undefined ? [] : [mcp])),
    });
    host.setActiveSession(session);
    const load = {
      paths: options.paths,
      cwd,
      host,
      session,
      builtInToolNames: [...BUILT_IN_TOOL_NAMES],
      ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
      opencode: options.opencode === true,
    };
    let loaded: LoadCustomToolsResult;
    if (options.watch === true) {
      watcher = await watchCustomTools({
        ...load,
        debounceMs: options.debounceMs,
        onReload: (reload) => {
          toolHosts.add(reload);
          writeDiagnostics(reload.diagnostics);
          say(describeReload(reload));
          mcp?.log(reloadLogLevel(reload), describeReloadToClient(reload, cwd));
          if (reloadChangedTools(reload)) mcp?.toolsChanged();
        },
        onError: (error) => say(error.message),
      });
      loaded = watcher.initial;
    } else {
      loaded = await loadCustomTools(load);
    }
    toolHosts.add(loaded);
    writeDiagnostics(loaded.diagnostics);
    const opencode = options.opencode === true;
    for (const line of await nothingToServe(loaded, options.paths, { cwd, opencode })) say(line);
    registerBuiltins(session, options.builtins ?? [], cwd);
    const watching = watcher === undefined ? "" : ", reloading on changes";
    const kept =
      store === undefined
        ? ""
        : `, pending actions kept in ${store.url} (session "${store.sessionId}"${session.pending.size > 0 ? `: ${count(session.pending.size, "action")} pending` : ""})`;
    say(`serving ${describeServed(loaded, options.builtins)} on stdio${watching}${kept}`);
    // A failing onSession (start now, shutdown on exit) is a W_ON_SESSION_FAILED on stderr.
    reportSessionHookFailures(session, loaded.tools, (diagnostic) => writeDiagnostics([diagnostic]));
    await session.start();

    mcp = createMcpServer({
      session,
      resolve: options.resolve,
      onError: (error) => say(messageOf(error)),
    });
    mcp.server.onerror = (error) => say(`protocol error: ${messageOf(error)}`);
    // A client that answers elicitation is the tools' UI (pi.ui, pi.hasUI); others leave none.
    const served = mcp;
    served.server.oninitialized = () => {
      if (clientElicits(served)) host.setUIContext(elicitationUI(served));
    };
    const gone = whenClientGone(stdin, stdout, options.signal);
    const transport = new StdioServerTransport(stdin, reserved?.protocol ?? stdout);
    replyToBadMessages(transport);
    await mcp.connect(transport);
    await Promise.race([gone.promise, mcp.closed]);
    gone.dispose();
    // Before the transport closes: a client still connected (a SIGTERM) gets the result.
    await waitForResolves(
      mcp.resolving(),
      (text) => {
        say(text);
        served.log("warning", text);
      },
      store === undefined
        ? undefined
        : { url: store.url, discard: pendingCommand(store, "discard", options.paths) },
    );
    await settledWithin(mcp.close(), DISCARD_BOUND_MS);
    return { tools: loaded.tools.map(({ tool }) => tool.name), diagnostics: loaded.diagnostics };
  } finally {
    // No reload from here on, but the tool hosts stay until the session is disposed: discarding
    // what is pending runs each action's reject in its tool host.
    await watcher?.stop();
    await disposeServedSession(session, say, { stored: store !== undefined });
    await watcher?.close();
    await toolHosts.close();
    reserved?.release();
    releaseFaults();
  }
}
