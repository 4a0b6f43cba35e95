import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { checkPrivateFolderSync, ensurePrivateFolder, runningToolCall } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { noToolsHint } from "../accept/accept-stage.js";
import { SessionRegistration } from "../accept/register-into-session.js";
import type { CacheFolderState } from "../compile/cache-folder.js";
import { cacheWarning, toolHostPacksWarning } from "../compile/cache-warning.js";
import { hash } from "../compile/hash.js";
import { describeError } from "../diagnostics.js";
import { expandPath, isWithin } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { LoadCustomToolsResult } from "../load/types.js";
import type { LoadContext } from "../options.js";
import { hostHasUI } from "./host-has-ui.js";
import { IsolatedToolHost, type StartedToolHost } from "./isolated-tools.js";
import { type IsolationContext, moduleReadPaths } from "./isolation-options.js";
import { ownCodeFolders } from "./own-code-folders.js";
import { prebuildPacks } from "./prebuild-packs.js";
import type { ChildMessage, InitMessage } from "./protocol.js";
import { keepSpare, planningSpare, sparesPlanned, takeToolHost } from "./spare-tool-hosts.js";
import {
  failedStart,
  type ToolHostProcess,
  type ToolHostSpawn,
  type ToolHostStop,
  withPrinted,
} from "./tool-host-process.js";

/**
 * A diagnostic of the tool host as the host reports it: a factory that returned no tools is
 * told that the tool host sees only the variables it was given (an API key set in the host's
 * environment is not among them unless `isolation.env` passes it). Told apart by what it is
 * about, a module the tool host loaded (`loaded`: their real paths), never by its text: the other
 * `W_NO_TOOLS`, of a package that lists no tools, is about its `package.json`.
 */
function inToolHost(
  diagnostic: Diagnostic,
  isolation: IsolationContext,
  loaded: ReadonlySet<string>,
): Diagnostic {
  const about = diagnostic.resolvedPath ?? diagnostic.path; // the path alone when it is the real one
  if (diagnostic.code !== "W_NO_TOOLS" || !loaded.has(about)) return diagnostic;
  return { ...diagnostic, hint: noToolsHint({ env: Object.keys(isolation.env).sort() }) };
}

function startFailureHint(kind: ToolHostStop["kind"]): string {
  if (kind === "out-of-memory")
    return "A module needs more memory than isolation.memoryMb allows: raise it, or fix the module.";
  if (kind === "hang") return "A module blocks while it loads: fix it, or raise isolation.loadTimeoutMs.";
  if (kind === "start")
    return (
      "The tool host runs under Node 20.11 or later: isolation.execPath (default: the host's Node; " +
      "on Bun, which has no permission model, the first `node` on PATH that is not Bun). Install Node or point isolation.execPath at it."
    );
  return "Run the load without isolation on a trusted copy to see the module's own error.";
}

/** Messages a tool host may send before it reports its tools (listens, pushes from factories). */
const MAX_EARLY_MESSAGES = 10_000;

const versions = new Map<string, Promise<string>>();

/** The version of another Node binary, asked once per process. */
function nodeVersionOf(execPath: string): Promise<string> {
  let version = versions.get(execPath);
  if (version === undefined) {
    version = promisify(execFile)(execPath, ["--version"], { encoding: "utf8", timeout: 30_000 }).then(
      ({ stdout }) => stdout.trim(),
      (error: unknown) => {
        throw new Error(`${execPath} could not be run (${describeError(error)})`);
      },
    );
    version.catch(() => versions.delete(execPath));
    versions.set(execPath, version);
  }
  return version;
}

/** How a load's tool host is started, and where the host builds the packs it reads. */
interface ToolHostPlan {
  spawn: ToolHostSpawn;
  cacheDir: string;
  /** Where the host builds the packs, when it may (a private folder the tool host cannot write). */
  packsDir: string | undefined;
  /** What the tool host may read besides the packs: all a pack may hold. */
  buildRoots: string[];
  /** Why the tool host got no cache of its own (its folder is not private), if it did not. */
  cacheProblem: Exclude<CacheFolderState, { usable: true }> | undefined;
}

async function planToolHost(context: LoadContext, isolation: IsolationContext): Promise<ToolHostPlan> {
  // What makes two loads one: the same working folder, paths and permissions share a cache.
  const { cwd, paths } = context;
  const { allowRead, allowWrite, allowExec, allowNet } = isolation;
  const key = hash(JSON.stringify([cwd, paths, allowRead, allowWrite, allowExec, allowNet])).slice(0, 24);
  // A folder of this load's own: the tool host writes it, so one shared by other projects'
  // tool hosts (the per-user cache) would let their modules read and rewrite this one's code.
  const cacheDir = join(context.cacheDir, "tool-host", key);
  const privateCache = await ensurePrivateFolder(cacheDir, context.cacheDir);
  const nodeVersion = isolation.nodeVersion ?? (await nodeVersionOf(isolation.execPath));
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
  // The host compiles the modules into packs the tool host may read but not write (it starts
  // no esbuild of its own); never where the tool host may write, as the host reads them back.
  const packsDir = join(context.cacheDir, "tool-host-packs", key);
  // In a cache folder others can write (or rename in), the host reads nothing back: no packs.
  const packsPrivate =
    !write.some((root) => isWithin(packsDir, resolve(root))) &&
    checkPrivateFolderSync(context.cacheDir, context.cacheDir).ok &&
    (await ensurePrivateFolder(packsDir, context.cacheDir)).ok;
  const buildRoots = [...read];
  if (packsPrivate) read.push(packsDir);
  return {
    spawn: {
      execPath: isolation.execPath,
      nodeVersion,
      cwd: context.cwd,
      // Node 22.1+ keeps the compiled code of Tooldock and the tools in the tool host's own
      // cache: its start is mostly compiling the code it imports.
      env: privateCache.ok ? { ...isolation.env, NODE_COMPILE_CACHE: join(cacheDir, "node") } : isolation.env,
      permissions: {
        read,
        write,
        exec: isolation.allowExec,
        net: isolation.allowNet,
        memoryMb: isolation.memoryMb,
      },
      hangTimeoutMs: isolation.hangTimeoutMs,
    },
    cacheDir,
    packsDir: packsPrivate ? packsDir : undefined,
    buildRoots,
    cacheProblem: privateCache.ok
      ? undefined
      : {
          usable: false,
          problem: privateCache.unwritable ? "unwritable" : "unsafe",
          folder: privateCache.folder,
          reason: privateCache.reason,
        },
  };
}

/**
 * The tool host's diagnostics, with the one that says why it had no cache: without access to
 * a cache folder that is not private, it finds it cannot write there (`W_CACHE_UNWRITABLE`,
 * "make it writable"), where the reason is the folder's (`W_CACHE_UNSAFE`, as in-process).
 * Its cache folder is the only one it writes (the packs it reads are the host's), so each of
 * its `W_CACHE_UNWRITABLE` is about that folder: told by its code, not by the folder in its text.
 */
function withCacheProblem(
  diagnostics: Diagnostic[],
  plan: ToolHostPlan,
  context: LoadContext,
  paths: readonly string[],
): Diagnostic[] {
  const problem = plan.cacheProblem;
  if (problem === undefined) return diagnostics;
  const refused = (diagnostic: Diagnostic) => diagnostic.code === "W_CACHE_UNWRITABLE";
  const entry = diagnostics.find(refused)?.path ?? paths[0] ?? context.cwd;
  return [cacheWarning(problem, context.cacheDir, entry), ...diagnostics.filter((each) => !refused(each))];
}

/**
 * Starts the tool host a later load with the same settings takes (see `prestartToolHost`):
 * it starts and waits for its load, holding nothing of the host.
 */
export function prestartIsolated(
  context: LoadContext,
  isolation: IsolationContext,
): Promise<ToolHostProcess> {
  return planningSpare(planToolHost(context, isolation).then((plan) => keepSpare(plan.spawn)));
}

/**
 * Calls `late` when `ms` pass from the moment `load` (the tool host's init message) settles,
 * unless the returned function is called first. Counted from there, not from the tool host's
 * start: the host builds the packs the tool host evaluates before the load is handed over,
 * and that build is not the modules' time (a large batch on a busy machine went past the
 * deadline, and a module was blamed for blocking).
 */
export function loadDeadline(load: Promise<unknown>, ms: number, late: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let disarmed = false;
  const arm = () => {
    if (!disarmed) timer = setTimeout(late, ms);
  };
  load.then(arm, arm);
  return () => {
    disarmed = true;
    clearTimeout(timer);
  };
}

/** The result of an isolated load whose start rejected with `error` (see `failedStart`). */
function notLoaded(
  context: LoadContext,
  paths: readonly string[],
  error: unknown,
  isolated: IsolatedToolHost,
  prebuilt: Promise<unknown> = Promise.resolve(),
): LoadCustomToolsResult & { isolated: IsolatedToolHost } {
  const { stop, stderr } = failedStart(error);
  const failure: Diagnostic = {
    code: "E_TOOL_HOST",
    severity: "error",
    message: `The tool host (the sandboxed process that loads these modules) stopped before it reported its tools. ${withPrinted(stop, stderr)}`,
    path: paths.join(", "),
    hint: startFailureHint(stop.kind),
  };
  return {
    tools: [],
    diagnostics: [...context.warnings, failure],
    modules: [],
    changes: { added: [], removed: [], replaced: [] },
    // The packs built for it may still be written after it stopped (a spawn that failed at once).
    cached: prebuilt.then(() => []),
    isolated,
  };
}

/**
 * Loads the modules in a tool host (see `IsolationOptions`): a child Node process under the
 * permission model discovers, compiles (jiti, in memory and its own cache folder) and
 * evaluates them, and the host's session gets a proxy for each tool. A tool host started
 * ahead for the same settings (`prestartToolHost`) is taken instead of starting one.
 */
export async function loadIsolated(
  context: LoadContext,
  isolation: IsolationContext,
): Promise<LoadCustomToolsResult & { isolated: IsolatedToolHost }> {
  const paths = context.paths.map((path) => expandPath(path, context.cwd));
  let plan: ToolHostPlan;
  try {
    plan = await planToolHost(context, isolation);
  } catch (error) {
    // Its Node could not be asked its version: no binary at execPath (on Bun, no `node` on PATH).
    const isolated = new IsolatedToolHost(() => Promise.reject(error), context.host, isolation);
    return notLoaded(context, paths, error, isolated);
  }
  const { spawn, cacheDir, packsDir, buildRoots } = plan;
  await sparesPlanned(); // a spare asked for before this load is one it may take
  // Built while the tool host starts; it reads them once it has its init message.
  let unbuilt: Diagnostic | undefined;
  const prebuilt =
    packsDir !== undefined
      ? prebuildPacks(context, packsDir, buildRoots).catch((error: unknown) => {
          unbuilt = toolHostPacksWarning(error, paths[0] ?? context.cwd);
          return false;
        })
      : Promise.resolve(false);
  // Log lines go to the host's logger as they come (nothing to attribute them to).
  const api = context.host.createAPI();
  const log = (message: Extract<ChildMessage, { t: "log" }>) => {
    try {
      api.logger[message.level](message.message, message.data);
    } catch {
      // The host's logger threw: its own fault, not the load's.
    }
  };
  const init: Promise<InitMessage> = prebuilt.then((withPacks) => ({
    t: "init",
    paths,
    cwd: context.cwd,
    cacheDir,
    factoryTimeoutMs: context.factoryTimeoutMs,
    builtInToolNames: [...context.reservedNames],
    sourceMaps: context.sourceMaps,
    hasUI: hostHasUI(context.host, runningToolCall()?.sessionId),
    allowExec: isolation.allowExec,
    ...(context.opencode ? { opencode: true } : {}),
    ...(withPacks && packsDir !== undefined ? { packsDir } : {}),
  }));
  // Messages a tool host sends before its tools are known (a factory's pi.events.on, a log
  // line) are handed over once the host side is attached.
  const start = () =>
    new Promise<StartedToolHost>((resolve, reject) => {
      const early: ChildMessage[] = [];
      const process = takeToolHost(spawn);
      if (isolation.onOutput !== undefined) process.onOutput = isolation.onOutput;
      process.begin(init);
      const disarm = loadDeadline(init, isolation.loadTimeoutMs, () => {
        void process.kill({
          kind: "hang",
          reason: `It did not load its modules within ${isolation.loadTimeoutMs} ms (isolation.loadTimeoutMs).`,
        });
      });
      process.onMessage = (message) => {
        if (message.t === "log") log(message);
        else if (message.t !== "loaded") {
          // Kept until the host side is attached; a tool host that sends more than a load needs
          // (a flood of forged pushes) is stopped rather than held in the host's memory.
          if (early.length < MAX_EARLY_MESSAGES) early.push(message);
          else
            process.breach(`It sent more than ${MAX_EARLY_MESSAGES} messages before it reported its tools.`);
        } else {
          disarm();
          process.onMessage = () => {};
          resolve({ process, loaded: message, early });
        }
      };
      process.onStop((stop) => {
        disarm();
        reject(Object.assign(new Error(stop.reason), { stop, stderr: process.stderr }));
      });
    });

  const isolated = new IsolatedToolHost(start, context.host, isolation);
  let loaded: StartedToolHost["loaded"];
  try {
    const first = await start();
    loaded = first.loaded;
    // Before the replay: an action a factory staged goes to this load's session, as in-process.
    if (context.session !== undefined) context.host.setActiveSession(context.session);
    isolated.adopt(first);
  } catch (error) {
    return notLoaded(context, paths, error, isolated, prebuilt);
  }
  const modules: DiscoveredModule[] = loaded.modules;
  const evaluated = new Set(modules.map(({ resolvedPath }) => resolvedPath));
  const registration = new SessionRegistration(context.session, modules, paths);
  const diagnostics: Diagnostic[] = [
    ...context.warnings,
    ...(unbuilt === undefined ? [] : [unbuilt]),
    ...withCacheProblem(
      loaded.diagnostics.map((diagnostic) => inToolHost(diagnostic, isolation, evaluated)),
      plan,
      context,
      paths,
    ),
  ];
  const accepted: Array<{ tool: ReturnType<IsolatedToolHost["proxy"]>; module: DiscoveredModule }> = [];
  let progressError: { error: unknown } | undefined;
  for (const [index, module] of modules.entries()) {
    const proxies = loaded.tools
      .filter((descriptor) => descriptor.resolvedPath === module.resolvedPath)
      .map((descriptor) => isolated.proxy(descriptor));
    for (const tool of proxies) accepted.push({ tool, module });
    const registered = registration.add(module, proxies);
    diagnostics.push(...registered.refused);
    // As in-process, one report per module; here all come once the tool host has reported.
    if (progressError === undefined && context.onProgress !== undefined) {
      const own = (diagnostic: Diagnostic) =>
        diagnostic.path === module.path || diagnostic.resolvedPath === module.resolvedPath;
      try {
        context.onProgress({
          completed: index + 1,
          total: modules.length,
          module,
          tools: registered.tools,
          diagnostics: loaded.diagnostics.filter(own).length + registered.refused.length,
        });
      } catch (error) {
        progressError = { error }; // the host's fault: the load still ends, then rejects
      }
    }
  }
  const registered = registration.finish({ accepted, diagnostics, skipped: new Set() });
  if (progressError !== undefined) throw progressError.error;
  return {
    tools: registered.tools,
    diagnostics,
    modules,
    changes: registered.changes,
    // The host built the tool host's packs before it loaded.
    cached: Promise.resolve([]),
    isolated,
  };
}
