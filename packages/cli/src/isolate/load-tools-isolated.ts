import { discoverToolModules } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { CliIo } from "../cli-io.js";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import { defaultToolPaths } from "../load/default-tool-paths.js";
import type { Output } from "../output/output.js";
import { displayPath } from "../report/diagnostic-text.js";
import type { LoadReport, ToolEntry } from "../report/report-types.js";
import { claimToolNames, type NameClaims } from "./claim-tool-names.js";
import type { IsolateOptions } from "./isolate-options.js";
import { mapBounded } from "./map-bounded.js";
import { ProcessGroupReaper } from "./process-group-reaper.js";
import { runIsolatedModule } from "./run-isolated-module.js";

/** Warnings about the compiler or the cache rather than a module: reported once per run. */
const LOAD_WIDE_WARNINGS: readonly string[] = ["W_CACHE_UNWRITABLE", "W_CACHE_UNSAFE", "W_COMPILER_FALLBACK"];

/** Options of {@link loadToolsIsolated}. */
export interface LoadToolsIsolatedOptions {
  io: CliIo;
  output: Output;
  /** Paths from the command line; empty means the defaults (see `defaultToolPaths`). */
  paths: string[];
  command: string;
  isolate: IsolateOptions;
}

/**
 * `validate --isolate`: discovers modules here, then loads each in a child process of its own
 * (bounded by `isolate.concurrency`), so a module that hangs, exits, crashes or runs out of
 * memory becomes a diagnostic instead of taking the CLI with it. Children share the compile
 * cache (same `cacheDir`). Name conflicts across modules are checked here, in discovery
 * order, as the loader does in-process; the result has the shape every reporter reads.
 */
export async function loadToolsIsolated(options: LoadToolsIsolatedOptions): Promise<LoadReport> {
  const { io, output } = options;
  const paths = options.paths.length > 0 ? options.paths : await defaultToolPaths(io.cwd, options.command);
  const discovered = await discoverToolModules({ paths, cwd: io.cwd });
  const context = {
    cwd: io.cwd,
    env: io.env,
    cacheDir: io.env.TOOLDOCK_CACHE_DIR || undefined,
    builtInToolNames: [...BUILT_IN_TOOL_NAMES],
    options: options.isolate,
    reaper: new ProcessGroupReaper(),
  };
  const progress = output.progress();
  let completed = 0;
  let results: Awaited<ReturnType<typeof runIsolatedModule>>[];
  try {
    results = await mapBounded(discovered.modules, options.isolate.concurrency, async (module) => {
      const result = await runIsolatedModule(module, context);
      completed += 1;
      progress.update(
        `[${completed}/${discovered.modules.length}] loaded ${displayPath(module.path, io.cwd)} (isolated)`,
      );
      return result;
    });
  } finally {
    progress.done();
  }
  const tools: ToolEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const add = (diagnostic: Diagnostic) => {
    // A warning about the whole load comes from every child; in-process it is given once.
    const loadWide = LOAD_WIDE_WARNINGS.includes(diagnostic.code);
    if (loadWide && diagnostics.some((earlier) => earlier.code === diagnostic.code)) return;
    diagnostics.push(diagnostic);
  };
  discovered.diagnostics.forEach(add);
  const claims: NameClaims = new Map();
  for (const [index, module] of discovered.modules.entries()) {
    const result = results[index] ?? { tools: [], diagnostics: [] };
    result.diagnostics.forEach(add);
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
