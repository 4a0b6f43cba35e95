import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import {
  type CompilerName,
  checkSessionHooks,
  type DiscoveredModule,
  discoverToolModules,
  type IsolatedToolHost,
  type IsolationOptions,
  loadCustomTools,
  readLoadEnvironment,
} from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { CliIo } from "../cli-io.js";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import { holdCacheWrite } from "../load/cache-writes.js";
import { defaultToolPaths } from "../load/default-tool-paths.js";
import { isInside } from "../load/path-inside.js";
import { toToolEntry } from "../load/to-tool-entry.js";
import type { Output } from "../output/output.js";
import { displayPath } from "../report/diagnostic-text.js";
import type { LoadReport, ToolEntry } from "../report/report-types.js";
import { claimToolNames, type NameClaims } from "./claim-tool-names.js";
import { VALIDATE_ISOLATE_TIMEOUT_MS } from "./isolation-flags.js";
import { mapBounded } from "./map-bounded.js";

/** Warnings about the compiler or the cache rather than a module: reported once per run. */
const LOAD_WIDE_WARNINGS: readonly string[] = ["W_CACHE_UNWRITABLE", "W_CACHE_UNSAFE", "W_COMPILER_FALLBACK"];

/**
 * After a module loaded (and its session hooks ran), how long its tool host is watched for a
 * stop, in its own timers: a module that ends its process from a timer or a callback right
 * after loading is reported, not passed. Not counted against the CPU bound: the tool host is
 * idle meanwhile.
 */
export const SETTLE_MS = 500;

/** Options of {@link validateIsolated}. */
export interface ValidateIsolatedOptions {
  io: CliIo;
  output: Output;
  /** Paths from the command line; empty means the defaults (see `defaultToolPaths`). */
  paths: string[];
  /** From the flags (`readIsolation`). */
  isolation: IsolationOptions;
  /** Load opencode tools too (`--opencode`): in discovery and in each module's load. Default: false. */
  opencode?: boolean;
  /** Tool hosts loading at once. Default: the number of CPUs. */
  concurrency?: number;
}

/** One module's result, before names are checked across modules. */
interface ModuleResult {
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
  /** Resolves once the tool host was watched for {@link SETTLE_MS} (or stopped) and closed. */
  settled: Promise<Diagnostic | undefined>;
}

/**
 * `validate` with isolation (its default): discovers the modules here, then loads **each in
 * a tool host of its own** (the loader's `isolation: "process"`, `paths: [module]`), up to
 * `concurrency` at once. A module is judged alone: what it does to its process (exit, crash,
 * out of memory, a busy loop, tampered built-ins) is a diagnostic naming it, and cannot make
 * a neighbour fail or pass. Names are then checked across modules in discovery order, as
 * the loader does in-process; the result has the shape every reporter reads.
 */
export async function validateIsolated(options: ValidateIsolatedOptions): Promise<LoadReport> {
  const { io, output } = options;
  const opencode = options.opencode === true;
  const paths =
    options.paths.length > 0 ? options.paths : await defaultToolPaths(io.cwd, "validate", opencode);
  const discovered = await discoverToolModules({ paths, cwd: io.cwd, opencode });
  const loadTimeoutMs = options.isolation.loadTimeoutMs ?? VALIDATE_ISOLATE_TIMEOUT_MS;
  const environment = readLoadEnvironment(io.env, io.cwd);
  const { factoryTimeoutMs } = environment;
  const context: ModuleContext = {
    io,
    roots: paths.map((path) => resolve(io.cwd, path)),
    isolation: { ...options.isolation, loadTimeoutMs, restart: false },
    // The loader's own deadline fires first, with its own code (E_IMPORT, E_FACTORY_TIMEOUT).
    factoryTimeoutMs: Math.max(1, Math.min(factoryTimeoutMs, Math.floor(loadTimeoutMs / 2))),
    compiler: environment.compiler,
    sourceMaps: environment.sourceMaps,
    opencode,
  };
  const progress = output.progress();
  let completed = 0;
  let results: ModuleResult[];
  try {
    results = await mapBounded(
      discovered.modules,
      options.concurrency ?? availableParallelism(),
      async (module) => {
        const result = await validateModule(module, context);
        completed += 1;
        progress.update(
          `[${completed}/${discovered.modules.length}] loaded ${displayPath(module.path, io.cwd)} (isolated)`,
        );
        return result;
      },
    );
  } finally {
    progress.done();
  }
  const late = await Promise.all(results.map((result) => result.settled));
  const tools: ToolEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const add = (diagnostic: Diagnostic) => {
    // A warning about the whole load comes from every tool host; in-process it is given once.
    const loadWide = LOAD_WIDE_WARNINGS.includes(diagnostic.code);
    if (loadWide && diagnostics.some((earlier) => earlier.code === diagnostic.code)) return;
    diagnostics.push(diagnostic);
  };
  environment.warnings.forEach(add);
  discovered.diagnostics.forEach(add);
  const claims: NameClaims = new Map();
  for (const [index, module] of discovered.modules.entries()) {
    const result = results[index] ?? { tools: [], diagnostics: [] };
    result.diagnostics.forEach(add);
    const stopped = late[index];
    if (stopped !== undefined) {
      add(stopped);
      continue; // its tools are left out: they would never run
    }
    const claimed = claimToolNames(module, result.tools, claims);
    claimed.diagnostics.forEach(add);
    tools.push(...claimed.tools);
  }
  return {
    modules: discovered.modules.map((module) => ({ path: module.path, resolvedPath: module.resolvedPath })),
    tools,
    diagnostics,
  };
}

interface ModuleContext {
  io: CliIo;
  /** The tool paths, absolute: a module reads the one it was found in, as a load of that path does. */
  roots: string[];
  isolation: IsolationOptions;
  factoryTimeoutMs: number;
  /** Read from the environment once for the run (its warnings too), not by each module's load. */
  compiler: CompilerName;
  sourceMaps: boolean;
  opencode: boolean;
}

/** Loads one module in a tool host of its own and runs its session hooks there. */
async function validateModule(module: DiscoveredModule, context: ModuleContext): Promise<ModuleResult> {
  const { io } = context;
  const loaded = await loadCustomTools({
    paths: [module.path],
    cwd: io.cwd,
    builtInToolNames: [...BUILT_IN_TOOL_NAMES],
    cacheDir: io.env.TOOLDOCK_CACHE_DIR || undefined,
    factoryTimeoutMs: context.factoryTimeoutMs,
    compiler: context.compiler,
    sourceMaps: context.sourceMaps,
    opencode: context.opencode,
    isolation: {
      ...context.isolation,
      // Its folder and the tool path it was found in (a package's other folders): the files it
      // imports, as a tool host loading that whole path reads them (a module alone reads itself).
      allowRead: [
        ...(context.isolation.allowRead ?? []),
        dirname(module.path),
        dirname(module.resolvedPath),
        ...context.roots.filter((root) => isInside(module.path, root) || isInside(module.resolvedPath, root)),
      ],
    },
  });
  holdCacheWrite(loaded.cached); // the tool host's packs, built while it starts
  const isolated = loaded.isolated as IsolatedToolHost;
  const reported = loaded.diagnostics.some((diagnostic) => diagnostic.code === "E_TOOL_HOST");
  const watch = reported ? undefined : watchStop(isolated);
  const diagnostics = [...loaded.diagnostics];
  if (watch?.reason() === undefined)
    diagnostics.push(...(await checkSessionHooks(loaded.tools, { cwd: io.cwd })));
  const settled = (async () => {
    const reason = await watch?.within(SETTLE_MS);
    await isolated.close();
    return reason === undefined ? undefined : stoppedAfterLoading(module, reason);
  })();
  return { tools: loaded.tools.map(toToolEntry), diagnostics, settled };
}

/** Watches a tool host that has reported its tools for a stop that was not asked for. */
function watchStop(isolated: IsolatedToolHost) {
  let stop: string | undefined =
    isolated.pid === undefined ? "It stopped right after it reported its tools." : undefined;
  let wake = () => {};
  const unsubscribe = isolated.subscribe((event) => {
    if (event.type !== "tool-host-stopped" || stop !== undefined) return;
    stop = event.reason;
    wake();
  });
  return {
    reason: () => stop,
    /**
     * Resolves with the stop's reason, or undefined when the tool host still runs after `ms`
     * of its own timers (on a busy machine it may be scheduled late: the host's clock would
     * pass a module whose timer ends its process right after loading).
     */
    async within(ms: number): Promise<string | undefined> {
      if (stop === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          // Not run through: it stopped, and its stop event (with the reason) wakes this.
          void isolated.settled(ms).then((ran) => {
            if (ran) resolve();
          });
        });
      }
      unsubscribe();
      return stop;
    },
  };
}

/** The error of a module whose tool host stopped after it reported its tools. */
function stoppedAfterLoading(module: DiscoveredModule, reason: string): Diagnostic {
  return {
    code: "E_TOOL_HOST",
    severity: "error",
    message:
      "The module loaded, then its tool host (the sandboxed process that loads it) stopped: " +
      `${reason} Its tools are left out.`,
    path: module.path,
    hint: "A module must not end, crash or block its process after loading (from a timer, a callback or an exit listener): fix it.",
  };
}
