import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAstEditTool } from "@tooldock/ast-edit";
import {
  type IsolationOptions,
  reportSessionHookFailures,
  ToolHost,
  type ToolWatcher,
  watchCustomTools,
} from "@tooldock/loader";
import { type IsolatedActionsInProcess, RESOLVE_TOOL_NAME } from "@tooldock/runtime";
import { settledWithin } from "@tooldock/runtime/internal";
import type { Diagnostic, Logger } from "@tooldock/sdk";
import { DISCARD_BOUND_MS } from "../call/run-tool-call.js";
import { describeStrayFault, holdStrayFaults } from "../faults/stray-faults.js";
import { limitServer } from "../http/body-budget.js";
import { isWildcardHost, urlHost } from "../http/local-address.js";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import { nothingToServe } from "../load/nothing-found.js";
import { ToolHostGenerations } from "../load/tool-host-generations.js";
import { type OpenStore, openSession } from "../store/open-store.js";
import { createAccessToken } from "./access-token.js";
import { InspectController } from "./inspect-controller.js";
import { createRequestHandler } from "./inspect-server.js";
import { defaultPageFolder, pageAssets } from "./page-assets.js";

/** The address `tooldock inspect` listens on unless `--host` says otherwise. */
export const DEFAULT_INSPECT_HOST = "127.0.0.1";

/** Options of {@link startInspect}. */
export interface StartInspectOptions {
  /** Tool modules, files or folders (already defaulted), relative to `cwd`. */
  paths: string[];
  /** Working folder of the session and the tools. */
  cwd: string;
  /** The CLI's version, shown on the page. */
  version: string;
  /** Address to listen on. Default {@link DEFAULT_INSPECT_HOST}. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Compile cache folder; default the loader's. */
  cacheDir?: string;
  /** Quiet time after a file change before the reload. Default: the loader's. */
  debounceMs?: number;
  /** Where the built page is. Default: found beside the CLI's code ({@link defaultPageFolder}). */
  pageFolder?: string;
  /** The access token; default a fresh random one. */
  token?: string;
  /** Load the modules in a tool host (`--isolate`); it stops with the server. Default: in-process. */
  isolation?: IsolationOptions;
  /**
   * Load opencode custom tools too (`--opencode`, the loader's `opencode`): `tool({ description,
   * args, execute })` exports, and `.opencode/tool(s)/*.{js,ts}` of a project root; every
   * reload too. Default: false.
   */
  opencode?: boolean;
  /**
   * Keep the session's pending actions in a durable store (`--store`): the session is
   * `sessionId` of `journal` (its actions read back), the page shows each action's history,
   * and closing leaves the durable actions there. The caller closes the journal after `close()`.
   */
  store?: OpenStore | undefined;
  /** The session's `isolatedActionsInProcess` (`--no-isolate`: `"run"`); default the runtime's, `"refuse"`. */
  isolatedActionsInProcess?: IsolatedActionsInProcess;
}

/** A running inspect server. */
export interface InspectServer {
  /** The URL to open, the token in its fragment (`#token=…`). */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** The first load's tools (by name) and diagnostics, `ast_edit` included. */
  readonly tools: string[];
  readonly modules: number;
  readonly diagnostics: Diagnostic[];
  /** What the first load says when the paths serve no tool, or one holds no module (`nothingToServe`). */
  readonly nothingServed: string[];
  readonly controller: InspectController;
  /**
   * Stops serving and watching, aborts running calls and disposes the session (pending actions
   * discarded; with a store, durable ones stay there).
   */
  close(): Promise<void>;
}

/**
 * `tooldock inspect`: loads the tools into one session (with the built-in `ast_edit`), watches
 * their files (a change reloads them into the same session, so pending actions survive), and
 * serves the inspect page and its API over HTTP on `host:port` with a random token. See
 * `inspect-server.ts` for what every request must carry.
 */
export async function startInspect(options: StartInspectOptions): Promise<InspectServer> {
  const { cwd } = options;
  const bindHost = options.host ?? DEFAULT_INSPECT_HOST;
  const token = options.token ?? createAccessToken();
  let controller: InspectController | undefined;
  const { store } = options;
  // First: a store that cannot be read stops here, before anything needs undoing.
  const session = await openSession(
    { cwd, isolatedActionsInProcess: options.isolatedActionsInProcess },
    store,
  );
  const releaseFaults = holdStrayFaults((fault) => {
    controller?.hub.log(
      "fault",
      "a tool's code threw after its call (reported; the server goes on)",
      describeStrayFault(fault),
    );
  });
  const host = new ToolHost({ cwd, logger: eventLogLogger(() => controller) });
  host.setActiveSession(session);
  let watcher: ToolWatcher | undefined;
  let server: Server | undefined;
  const toolHosts = new ToolHostGenerations(({ text, diagnostics }) =>
    controller?.hub.log("warning", text, diagnostics.map((diagnostic) => diagnostic.message).join("\n")),
  );
  try {
    session.register(createAstEditTool({ cwd }), "built-in");
    watcher = await watchCustomTools({
      paths: options.paths,
      cwd,
      host,
      session,
      builtInToolNames: [...BUILT_IN_TOOL_NAMES],
      cacheDir: options.cacheDir,
      debounceMs: options.debounceMs,
      ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
      opencode: options.opencode === true,
      onReload: (reload) => {
        controller?.reloaded(reload);
        toolHosts.add(reload);
      },
      onError: (error) => controller?.hub.log("warning", error.message),
    });
    const loaded = watcher.initial;
    toolHosts.add(loaded);
    const diagnostics = [...loaded.diagnostics];
    const started = new InspectController({
      session,
      version: options.version,
      diagnostics,
      ...(store === undefined ? {} : { store: { url: store.url, sessionId: store.sessionId } }),
    });
    controller = started;
    await started.loadHistory();
    const nothingServed = await nothingToServe(loaded, options.paths, {
      cwd,
      opencode: options.opencode === true,
    });
    for (const line of nothingServed) started.hub.log("warning", line);
    reportSessionHookFailures(session, loaded.tools, (diagnostic) =>
      started.hub.log(
        "warning",
        `${diagnostic.code} ${diagnostic.toolName ?? ""}`.trim(),
        diagnostic.message,
      ),
    );
    await session.start();
    server = createServer();
    limitServer(server);
    const port = await listen(server, options.port ?? 0, bindHost);
    server.on(
      "request",
      createRequestHandler({
        controller: started,
        assets: pageAssets(options.pageFolder ?? defaultPageFolder()),
        token,
        bindHost,
        port,
      }),
    );
    const shownHost = urlHost(isWildcardHost(bindHost) ? DEFAULT_INSPECT_HOST : bindHost);
    const running = server;
    const runningWatcher = watcher;
    let closing: Promise<void> | undefined;
    return {
      // In the fragment: a browser sends it to no server (not even this one) and keeps it in
      // no cookie; the page reads it from there.
      url: `http://${shownHost}:${port}/#token=${token}`,
      port,
      token,
      tools: session
        .tools()
        .map((tool) => tool.name)
        .filter((name) => name !== RESOLVE_TOOL_NAME),
      modules: loaded.modules.length,
      diagnostics,
      nothingServed,
      controller: started,
      close() {
        closing ??= shutDown(running, runningWatcher);
        return closing;
      },
    };
  } catch (error) {
    await shutDown(server, watcher);
    throw error;
  }

  async function shutDown(
    running: Server | undefined,
    runningWatcher: ToolWatcher | undefined,
  ): Promise<void> {
    controller?.close();
    if (running !== undefined) {
      const closed = new Promise((resolve) => running.close(resolve));
      running.closeAllConnections();
      await closed;
    }
    // No reload from here on, but the tool host stays until the session is disposed:
    // discarding what is pending runs each action's reject in its tool host.
    await runningWatcher?.stop();
    host.setActiveSession(undefined);
    await settledWithin(session.dispose(), DISCARD_BOUND_MS);
    await runningWatcher?.close();
    await toolHosts.close();
    releaseFaults();
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** `pi.logger` of the tools: each message becomes a `log` line of the event log. */
function eventLogLogger(controller: () => InspectController | undefined): Logger {
  const log = (level: string) => (message: string, data?: unknown) => {
    let detail: string | undefined;
    try {
      detail = data === undefined ? undefined : JSON.stringify(data);
    } catch {
      detail = String(data);
    }
    controller()?.hub.log("log", `[${level}] ${String(message)}`, detail);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
