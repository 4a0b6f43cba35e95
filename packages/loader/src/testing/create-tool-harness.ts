import { resolve as resolvePath } from "node:path";
import {
  type PendingActionRecord,
  RESOLVE_TOOL_NAME,
  Session,
  type SessionOptions,
  type ToolCallError,
} from "@tooldock/runtime";
import { settledWithin } from "@tooldock/runtime/internal";
import type { AgentToolResult, Diagnostic, Logger, UIContext } from "@tooldock/sdk";
import { ToolHost } from "../host-api/tool-host.js";
import { loadCustomTools } from "../load/load-custom-tools.js";
import { reportSessionHookFailures } from "../load/session-hooks.js";
import type { LoadedCustomTool } from "../load/types.js";
import type { LoadCustomToolsOptions } from "../options.js";
import { withNodeStackTraces } from "./node-stack-traces.js";

/** How long `dispose()` waits for the load's cache writes: as long as the CLI before it exits. */
const CACHE_WRITE_WAIT_MS = 10_000;

/**
 * Options of {@link createToolHarness}: those of `loadCustomTools` (same defaults), for the
 * module or folder under test (or several), plus the host and session to load them into.
 */
export interface ToolHarnessOptions
  extends Pick<
    LoadCustomToolsOptions,
    | "cwd"
    | "compiler"
    | "cacheDir"
    | "factoryTimeoutMs"
    | "sourceMaps"
    | "builtInToolNames"
    | "isolation"
    | "opencode"
  > {
  /** The tool module or folder under test, or several of them. */
  paths: string | string[];
  /** A UI for the tools (`pi.hasUI` is true); also settable later with `harness.host.setUIContext`. */
  ui?: UIContext;
  /** Receives the tools' `pi.logger` messages. Default: dropped. */
  logger?: Logger;
  /** Passed to the fresh `Session` (its `cwd` defaults to the harness `cwd`). */
  session?: Omit<SessionOptions, "cwd">;
}

/**
 * What {@link ToolHarness.call} returns: the result the model would read, and, when the tool
 * threw or rejected, `error`, the same {@link ToolCallError} the session's `tool-call-end`
 * event carries: `message`, `name`, `code`, the source-mapped `stack` and `location`
 * (`{ file, line, column }` of the tool module's own line that threw or called what threw).
 */
export type ToolHarnessResult = AgentToolResult & { error?: ToolCallError };

/** A loaded tool module in a fresh session, driven the way a host and a model would drive it. */
export interface ToolHarness {
  session: Session;
  /** The host whose `pi` the tools received; its active session is {@link ToolHarness.session}. */
  host: ToolHost;
  tools: LoadedCustomTool[];
  diagnostics: Diagnostic[];
  /**
   * Calls a tool through the session: arguments are validated, faults come back as `isError`
   * results. When the tool threw or rejected, the result also has `error` (where and why).
   * Throws when the session has no tool of that name: the test is wrong, not the tool.
   */
  call(name: string, params: unknown, options?: { signal?: AbortSignal }): Promise<ToolHarnessResult>;
  /** The pending actions, top first. */
  readonly pending: PendingActionRecord[];
  /** Calls the hidden `resolve` tool: applies or discards the top pending action. */
  resolve(action: "apply" | "discard", reason: string): Promise<ToolHarnessResult>;
  /**
   * Disposes the session (pending actions are discarded, tools get `shutdown`) and waits for
   * the load's cache writes (on Node 22.15+ they come after a cold load), so the test may then
   * remove its cache folder: at most 10 s, as the CLI does, so that a build that never ends
   * does not hang the test (the next load compiles what was not written).
   */
  dispose(): Promise<void>;
}

/**
 * Loads tool modules exactly as a host does (discovery, compilation, guards, validation) into
 * a fresh `Session`, started, with the host's `pi` API bound to it. For tool authors' tests.
 *
 * @example
 * ```ts
 * import { createToolHarness } from "@tooldock/loader/testing";
 *
 * it("stages a rename", async () => {
 *   const harness = await createToolHarness({ paths: "./src/rename.ts" });
 *   expect(harness.diagnostics).toEqual([]);
 *   await harness.call("rename", { from: "a.txt", to: "b.txt" });
 *   expect(harness.pending.map((action) => action.label)).toEqual(["Rename a.txt"]);
 *   await harness.resolve("apply", "looks right");
 *   await harness.dispose();
 * });
 * ```
 */
export async function createToolHarness(options: ToolHarnessOptions): Promise<ToolHarness> {
  const cwd = resolvePath(options.cwd ?? process.cwd());
  const session = new Session({ ...options.session, cwd });
  const host = new ToolHost({ cwd, ui: options.ui, logger: options.logger });
  const { paths, ui: _ui, logger: _logger, session: _session, ...load } = options;
  const given = typeof paths === "string" ? [paths] : paths;
  const loaded = await loadCustomTools({
    ...load,
    paths: given,
    cwd,
    host,
    session,
  });
  // No module found and nothing saying why (a folder whose module sits one level too deep):
  // a test must not pass having tested nothing. A module that gave no tool is W_NO_TOOLS.
  if (loaded.modules.length === 0 && !loaded.diagnostics.some(({ severity }) => severity === "error")) {
    await loaded.isolated?.close();
    throw new Error(
      `createToolHarness: no tool module was found in ${given.join(", ")} (from ${cwd}), so there is nothing to test. ` +
        "A folder's modules are its top-level module files and each subfolder's index file, or what its " +
        "package.json lists; point paths at the module under test.",
    );
  }
  // A failing onSession is a W_ON_SESSION_FAILED warning in `diagnostics` (start, and shutdown on dispose).
  reportSessionHookFailures(session, loaded.tools, (diagnostic) => loaded.diagnostics.push(diagnostic));
  await session.start();
  // The error of each call whose tool threw, from its `tool-call-end`, until `call` returns it.
  const errors = new Map<string, ToolCallError>();
  session.subscribe((event) => {
    if (event.type === "tool-call-end" && event.error !== undefined)
      errors.set(event.toolCallId, event.error);
  });
  let calls = 0;
  const execute = async (name: string, params: unknown, signal?: AbortSignal): Promise<ToolHarnessResult> => {
    calls += 1;
    const toolCallId = `harness-call-${calls}`;
    const result = await withNodeStackTraces(() => session.execute({ toolCallId, name, params, signal }));
    const error = errors.get(toolCallId);
    if (error === undefined) return result;
    errors.delete(toolCallId);
    return { ...result, error };
  };
  return {
    session,
    host,
    tools: loaded.tools,
    diagnostics: loaded.diagnostics,
    call: async (name, params, callOptions) => {
      if (name !== RESOLVE_TOOL_NAME && session.get(name) === undefined) {
        const names = session
          .tools()
          .filter((tool) => tool.name !== RESOLVE_TOOL_NAME)
          .map((tool) => `"${tool.name}"`);
        const said = loaded.diagnostics.map(({ code, message }) => `\n  ${code}: ${message}`).join("");
        throw new Error(
          `harness.call: the session has no tool "${name}" (it has ${names.length === 0 ? "none" : names.join(", ")}).` +
            (said === "" ? "" : ` The load said:${said}`),
        );
      }
      return execute(name, params, callOptions?.signal);
    },
    get pending() {
      return session.pending.list();
    },
    resolve: (action, reason) => execute("resolve", { action, reason }),
    async dispose() {
      await session.dispose();
      if (host.activeSession === session) host.setActiveSession(undefined);
      await loaded.isolated?.close();
      await settledWithin(loaded.cached, CACHE_WRITE_WAIT_MS);
    },
  };
}
