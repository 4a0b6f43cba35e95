import {
  checkSessionHooks,
  type IsolationOptions,
  type LoadCustomToolsResult,
  loadCustomTools,
  reportSessionHookFailures,
  type ToolHost,
} from "@tooldock/loader";
import type { Session } from "@tooldock/runtime";
import type { CliIo } from "../cli-io.js";
import type { Output } from "../output/output.js";
import { displayPath } from "../report/diagnostic-text.js";
import type { LoadReport } from "../report/report-types.js";
import { BUILT_IN_TOOL_NAMES } from "./built-in-tools.js";
import { holdCacheWrite } from "./cache-writes.js";
import { defaultToolPaths } from "./default-tool-paths.js";
import { toToolEntry } from "./to-tool-entry.js";

/** Options of {@link loadTools}. */
export interface LoadToolsOptions {
  io: CliIo;
  output: Output;
  /** Paths from the command line; empty means the defaults (see `defaultToolPaths`). */
  paths: string[];
  /** The command, for the usage line when no default path exists. */
  command: string;
  /** The tool the command calls (`call`): named in that usage error when it is a path. */
  toolName?: string;
  /** Registers the loaded tools here and binds `pushPendingAction` to it. */
  session?: Session;
  host?: ToolHost;
  /**
   * Without `session`: run each tool's `onSession` once (start, shutdown) in a session of its
   * own, so a hook that fails is a `W_ON_SESSION_FAILED` warning (`list`, `validate`).
   */
  checkSessionHooks?: boolean;
  /** Compile cache; default `$TOOLDOCK_CACHE_DIR`, else the loader's default. */
  cacheDir?: string;
  /** Load the modules in a tool host (`--isolate`); default in-process. */
  isolation?: IsolationOptions;
  /** Load opencode tools too (`--opencode`, the loader's `opencode`). Default: false. */
  opencode?: boolean;
}

/** A load, both as the loader returned it and as the reporters read it. */
export interface LoadedTools {
  result: LoadCustomToolsResult;
  report: LoadReport;
  /** Stops the tool host of an isolated load (nothing in-process); call it when done with the tools. */
  close(): Promise<void>;
}

/**
 * Loads tools for a command, with a progress line on stderr (terminals only) while modules
 * compile (in-process loads). `ast_edit` and `resolve` are reserved: modules cannot claim
 * them. With `isolation`, the tools are proxies of a tool host: `close()` stops it.
 */
export async function loadTools(options: LoadToolsOptions): Promise<LoadedTools> {
  const { io, output } = options;
  const paths =
    options.paths.length > 0
      ? options.paths
      : await defaultToolPaths(io.cwd, options.command, options.opencode === true, options.toolName);
  const progress = output.progress();
  let result: LoadCustomToolsResult;
  try {
    result = await loadCustomTools({
      paths,
      cwd: io.cwd,
      host: options.host,
      session: options.session,
      builtInToolNames: [...BUILT_IN_TOOL_NAMES],
      cacheDir: options.cacheDir ?? (io.env.TOOLDOCK_CACHE_DIR || undefined),
      ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
      opencode: options.opencode === true,
      onProgress: (event) => {
        progress.update(
          `[${event.completed}/${event.total}] loaded ${displayPath(event.module.path, io.cwd)}`,
        );
      },
    });
  } finally {
    progress.done();
  }
  holdCacheWrite(result.cached);
  const report: LoadReport = {
    modules: result.modules.map((module) => ({ path: module.path, resolvedPath: module.resolvedPath })),
    tools: result.tools.map(toToolEntry),
    diagnostics: result.diagnostics,
  };
  // A throwing onSession is a W_ON_SESSION_FAILED warning: `list` and `validate` run the
  // hooks once to find it; with a session (`call`), its own start and shutdown report it.
  if (options.session === undefined) {
    if (options.checkSessionHooks === true)
      report.diagnostics.push(...(await checkSessionHooks(result.tools, { cwd: io.cwd })));
  } else {
    reportSessionHookFailures(options.session, result.tools, (diagnostic) =>
      report.diagnostics.push(diagnostic),
    );
  }
  const close = async () => {
    await result.isolated?.close();
  };
  return { result, report, close };
}
