import type { Diagnostic } from "@tooldock/sdk";
import { accept } from "../accept/accept-stage.js";
import type { NameClaims } from "../accept/accept-tools.js";
import { SessionRegistration } from "../accept/register-into-session.js";
import { BuildStage } from "../build/build-stage.js";
import { createModuleCompiler } from "../build/module-compiler.js";
import { discover } from "../discover/discover-stage.js";
import { expandPath } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";
import { lateFaultDiagnostics, processListenerWarning } from "../evaluate/fault-diagnostics.js";
import { loadModule } from "../evaluate/load-module.js";
import { LoadGuard, watchProcessListeners } from "../guards/load-guard.js";
import { type IsolationContext, normalizeIsolation } from "../isolation/isolation-options.js";
import { loadIsolated, prestartIsolated } from "../isolation/load-isolated.js";
import { dropSpare } from "../isolation/spare-tool-hosts.js";
import { type LoadCustomToolsOptions, normalizeLoadOptions } from "../options.js";
import { mapPackStacksOnBun } from "./bun-stack-maps.js";
import type { LoadCustomToolsResult, LoadedCustomTool } from "./types.js";

/**
 * Discovers, compiles and loads custom tool modules (docs/contract.md §5). Never throws for a module's
 * fault: each one becomes a {@link Diagnostic} and loading goes on with the next module.
 * A load is four stages, each module passing through them in discovery order: **discover**
 * (paths → module entries, streamed: the first module is built while discovery goes on),
 * **build** (entries → evaluable units: esbuild bundles and packs, or jiti; compiled ahead,
 * see `BuildStage`), **evaluate** (a unit → its factory's result, under the guards), **accept** (the
 * result → accepted tool records and diagnostics); the first module to claim a tool name
 * keeps it. With `session`, the tools are registered into it (origin: the module path) and it
 * becomes the host's active session. Loading into a session the same modules were loaded
 * into before replaces their tools and keeps its pending actions; `changes` says which
 * names were added, removed or replaced (see `registerIntoSession`).
 *
 * @example
 * ```ts
 * const session = new Session({ cwd });
 * const { tools, diagnostics } = await loadCustomTools({ paths: ["./tools"], cwd, session });
 * for (const d of diagnostics) console.error(`${d.code} ${d.message}\n  ${d.hint}`);
 * ```
 */
export async function loadCustomTools(options: LoadCustomToolsOptions): Promise<LoadCustomToolsResult> {
  const context = normalizeLoadOptions(options);
  const isolation = isolationOf(options, context.cwd);
  if (isolation !== undefined) return loadIsolated(context, isolation);
  // Stack traces from compiled tools then name the `.ts` file and line (bundles link their
  // map from `<cacheDir>/maps/`). Process-wide, as `node --enable-source-maps`; modules imported
  // while it is off are never mapped, so it comes before the first import. Not every runtime has it.
  if (context.sourceMaps) {
    process.setSourceMapsEnabled?.(true);
    await mapPackStacksOnBun(); // Bun has none of its own for what it imports
  }
  const diagnostics: Diagnostic[] = [...context.warnings];
  const api = context.host.createAPI();
  if (context.session !== undefined) context.host.setActiveSession(context.session);
  // Stage 1 and 2: modules are announced to the build as discovery finds them, so the first
  // cache miss builds every stale module found so far in one esbuild build.
  let build: BuildStage | undefined;
  const discovery = discover(context, (module) => build?.found(module));
  const warn = (warning: Diagnostic) => diagnostics.push(warning);
  const compiler = createModuleCompiler(context.compiler, context.cacheDir, warn, context.packsDir);
  build = new BuildStage(compiler, discovery.found);
  for (const module of discovery.found) build.found(module); // found before the stage existed
  const ended = () => build?.discoveryEnded();
  discovery.diagnostics().then(ended, ended);
  const acceptance = { reserved: context.reservedNames, claims: new Map() as NameClaims };
  const registration = new SessionRegistration(
    context.session,
    discovery.found,
    context.paths.map((path) => expandPath(path, context.cwd)),
  );

  const guard = new LoadGuard(); // released in the `finally` below, whatever happens
  // Counted after each module: a listener added since the previous one is that module's.
  const checkListeners = watchProcessListeners();
  // Each module's tools are registered into the session as soon as they are accepted, so the
  // host can offer them before the batch ends; a module found hostile late in the batch
  // (process.exit from a timer) has its tools withdrawn when it ends.
  const accepted: Array<{ tool: LoadedCustomTool["tool"]; module: DiscoveredModule }> = [];
  let progressError: { error: unknown } | undefined;
  try {
    for (let index = 0; ; index++) {
      // A module already found is taken as it is: no promise, no turn of the microtask queue.
      const module = index < discovery.found.length ? discovery.found[index] : await discovery.next(index);
      if (module === undefined) break;
      const before = diagnostics.length;
      const faults = guard.faultsOf(module.resolvedPath);
      const unit = build.unit(module);
      // A module from an imported pack with a synchronous factory loads without a promise.
      const loading = loadModule(unit, {
        api,
        factoryTimeoutMs: context.factoryTimeoutMs,
        faults,
        opencode: context.opencode,
      });
      const contributed = accept(module, loading instanceof Promise ? await loading : loading, acceptance);
      diagnostics.push(...contributed.diagnostics);
      for (const tool of contributed.tools) accepted.push({ tool, module });
      const listeners = checkListeners();
      if (listeners.length > 0) diagnostics.push(processListenerWarning(module, listeners));
      const registered = registration.add(module, contributed.tools);
      diagnostics.push(...registered.refused);
      if (progressError === undefined && context.onProgress !== undefined) {
        try {
          context.onProgress({
            completed: index + 1,
            total: discovery.found.length,
            module,
            tools: registered.tools,
            diagnostics: diagnostics.length - before,
          });
        } catch (error) {
          // The host's fault: the batch still ends (late-caught modules withdrawn), then rejects.
          progressError = { error };
        }
      }
    }
  } finally {
    // The guards come off whatever the compiler does on its way out.
    try {
      await build.close();
    } finally {
      await guard.close();
    }
  }
  const modules = discovery.found;
  // Discovery's diagnostics come first, as when discovery ended before the first module loaded.
  diagnostics.unshift(...(await discovery.diagnostics()));

  const skipped = new Set<string>();
  for (const module of modules) {
    const late = lateFaultDiagnostics(module, guard.faultsOf(module.resolvedPath));
    diagnostics.push(...late);
    if (late.some((diagnostic) => diagnostic.severity === "error")) skipped.add(module.resolvedPath);
  }
  const registered = registration.finish({
    accepted: accepted.filter(({ module }) => !skipped.has(module.resolvedPath)),
    diagnostics,
    skipped,
  });
  if (progressError !== undefined) throw progressError.error;
  return {
    tools: registered.tools,
    diagnostics,
    modules: [...modules],
    changes: registered.changes,
    cached: build.cached(),
  };
}

function isolationOf(options: LoadCustomToolsOptions, cwd: string): IsolationContext | undefined {
  const isolation = options.isolation ?? "none";
  if (isolation === "none") return undefined;
  return normalizeIsolation(isolation === "process" ? { mode: "process" } : isolation, cwd);
}

/** A tool host started ahead of need; see {@link prestartToolHost}. */
export interface PrestartedToolHost {
  /**
   * Resolves `true` once the tool host runs and waits for its load; `false` if it could not
   * start or stopped first (the load then starts its own, and reports why it failed).
   */
  readonly ready: Promise<boolean>;
  /** Its process id, once started (the same as the load's `isolated.pid` when a load took it). */
  readonly pid: number | undefined;
  /** Stops it, unless a load took it already. */
  close(): Promise<void>;
}

/**
 * Starts the tool host of an isolated load before the load is asked for, so that the load
 * does not wait for Node to start: the next `loadCustomTools` with the same `options` (the
 * same working folder, paths, cache folder and `isolation` settings) takes it instead of
 * starting one. It reads no module until then; one kept per set of settings (at most four),
 * and it never keeps the host's process alive. A load whose settings differ starts its own.
 *
 * @example
 * ```ts
 * const options = { paths: ["./tools"], isolation: "process" } as const;
 * const prestarted = prestartToolHost(options); // at the server's start
 * // … later, when the first session opens: no process start in the load's time
 * const { tools } = await loadCustomTools({ ...options, session });
 * ```
 */
export function prestartToolHost(options: LoadCustomToolsOptions): PrestartedToolHost {
  const context = normalizeLoadOptions(options);
  const isolation = isolationOf(options, context.cwd);
  if (isolation === undefined)
    throw new TypeError('prestartToolHost starts a tool host: pass isolation "process" or its settings.');
  const spare = prestartIsolated(context, isolation);
  let pid: number | undefined;
  return {
    ready: spare.then(
      (process) => {
        pid = process.pid;
        return process.ready();
      },
      () => false,
    ),
    get pid() {
      return pid;
    },
    async close() {
      const process = await spare.catch(() => undefined);
      if (process !== undefined) await dropSpare(process); // unless a load took it
    },
  };
}
