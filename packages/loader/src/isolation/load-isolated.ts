import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ensurePrivateFolder } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { SessionRegistration } from "../accept/register-into-session.js";
import { expandPath } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { LoadCustomToolsResult } from "../load/types.js";
import type { LoadContext } from "../options.js";
import { IsolatedToolHost } from "./isolated-tools.js";
import { type IsolationContext, moduleReadPaths } from "./isolation-options.js";
import { ownCodeFolders } from "./own-code-folders.js";
import type { ChildMessage, InitMessage } from "./protocol.js";
import { ToolHostProcess, type ToolHostStop } from "./tool-host-process.js";

type Loaded = Extract<ChildMessage, { t: "loaded" }>;

/** The diagnostic of a tool host that did not get as far as loading its modules. */
function startFailure(paths: readonly string[], stop: ToolHostStop, stderr: string): Diagnostic {
  // What it printed last says why it stopped, except after running out of memory: V8's own
  // backtrace then, which says nothing to the module's author.
  const tail = stop.kind === "out-of-memory" ? "" : stderr.trim().split("\n").slice(-5).join("\n");
  return {
    code: "E_TOOL_HOST",
    severity: "error",
    message: `The tool host (the sandboxed process that loads these modules) stopped before it reported its tools. ${stop.reason}${tail === "" ? "" : `\n${tail}`}`,
    path: paths.join(", "),
    hint:
      stop.kind === "out-of-memory"
        ? "A module needs more memory than isolation.memoryMb allows: raise it, or fix the module."
        : stop.kind === "hang"
          ? "A module blocks while it loads: fix it, or raise isolation.loadTimeoutMs."
          : "Run the load without isolation on a trusted copy to see the module's own error.",
  };
}

function nodeVersionOf(execPath: string): string {
  return execFileSync(execPath, ["--version"], { encoding: "utf8", timeout: 30_000 }).trim();
}

/**
 * Loads the modules in a tool host (see `IsolationOptions`): a child Node process under the
 * permission model discovers, compiles (jiti, in memory and its own cache folder) and
 * evaluates them, and the host's session gets a proxy for each tool.
 */
export async function loadIsolated(
  context: LoadContext,
  isolation: IsolationContext,
): Promise<LoadCustomToolsResult & { isolated: IsolatedToolHost }> {
  const cacheDir = join(context.cacheDir, "tool-host");
  const privateCache = await ensurePrivateFolder(cacheDir, context.cacheDir);
  const nodeVersion = isolation.nodeVersion ?? nodeVersionOf(isolation.execPath);
  const read = [
    ...ownCodeFolders(),
    ...context.paths.flatMap((path) => moduleReadPaths(expandPath(path, context.cwd))),
    context.cwd,
    ...isolation.allowRead,
    ...isolation.allowWrite,
  ];
  const write = [...isolation.allowWrite];
  if (privateCache.ok) {
    read.push(cacheDir);
    write.push(cacheDir);
  }
  const init: InitMessage = {
    t: "init",
    paths: context.paths.map((path) => expandPath(path, context.cwd)),
    cwd: context.cwd,
    cacheDir,
    factoryTimeoutMs: context.factoryTimeoutMs,
    builtInToolNames: [...context.reservedNames],
    sourceMaps: context.sourceMaps,
    hasUI: context.host.createAPI().hasUI,
  };
  // Messages a tool host sends before its tools are known (a factory's pi.events.on, a log
  // line) are handed over once the host side is attached.
  const start = () =>
    new Promise<{ process: ToolHostProcess; loaded: Loaded; early: ChildMessage[] }>((resolve, reject) => {
      const early: ChildMessage[] = [];
      const process = new ToolHostProcess({
        execPath: isolation.execPath,
        nodeVersion,
        cwd: context.cwd,
        // Node 22.1+ keeps the compiled code of Tooldock and the tools in the tool host's own
        // cache: its start is mostly compiling the code it imports.
        env: privateCache.ok
          ? { ...isolation.env, NODE_COMPILE_CACHE: join(cacheDir, "node") }
          : isolation.env,
        permissions: {
          read,
          write,
          exec: isolation.allowExec,
          net: isolation.allowNet,
          memoryMb: isolation.memoryMb,
        },
        init,
        hangTimeoutMs: isolation.hangTimeoutMs,
      });
      const timer = setTimeout(() => {
        void process.kill({
          kind: "hang",
          reason: `It did not load its modules within ${isolation.loadTimeoutMs} ms (isolation.loadTimeoutMs).`,
        });
      }, isolation.loadTimeoutMs);
      process.onMessage = (message) => {
        if (message.t !== "loaded") {
          early.push(message);
          return;
        }
        clearTimeout(timer);
        process.onMessage = () => {};
        resolve({ process, loaded: message, early });
      };
      process.onStop((stop) => {
        clearTimeout(timer);
        reject(Object.assign(new Error(stop.reason), { stop, stderr: process.stderr }));
      });
    });

  const isolated = new IsolatedToolHost(start, context.host, isolation);
  let loaded: Loaded;
  try {
    const first = await start();
    loaded = first.loaded;
    isolated.adopt(first.process, first.early);
  } catch (error) {
    // A stop of the process carries its own; anything else (a spawn that threw) is a start failure.
    const failure = error as { stop?: ToolHostStop; stderr?: string; message?: unknown };
    const stop = failure.stop ?? {
      kind: "start",
      reason: `It could not start: ${String(failure.message ?? error)}.`,
    };
    const stderr = failure.stderr ?? "";
    return {
      tools: [],
      diagnostics: [startFailure(init.paths, stop, stderr)],
      modules: [],
      changes: { added: [], removed: [], replaced: [] },
      isolated,
    };
  }
  if (context.session !== undefined) context.host.setActiveSession(context.session);
  const modules: DiscoveredModule[] = loaded.modules;
  const registration = new SessionRegistration(context.session, modules, init.paths);
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  const accepted: Array<{ tool: ReturnType<IsolatedToolHost["proxy"]>; module: DiscoveredModule }> = [];
  for (const module of modules) {
    const proxies = loaded.tools
      .filter((descriptor) => descriptor.resolvedPath === module.resolvedPath)
      .map((descriptor) => isolated.proxy(descriptor));
    for (const tool of proxies) accepted.push({ tool, module });
    const registered = registration.add(module, proxies);
    diagnostics.push(...registered.refused);
  }
  const registered = registration.finish({ accepted, diagnostics, skipped: new Set() });
  return { tools: registered.tools, diagnostics, modules, changes: registered.changes, isolated };
}
