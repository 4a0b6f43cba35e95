import type { Diagnostic } from "@tooldock/sdk";
import { enableSourceMaps } from "../compile/enable-source-maps.js";
import { createModuleCompiler } from "../compile/module-compiler.js";
import { discoverToolModules } from "../discover/discover-tool-modules.js";
import { expandPath } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";
import { type GlobalChange, watchGlobals } from "../guards/global-snapshot.js";
import { LoadGuard } from "../guards/load-guard.js";
import { type LoadCustomToolsOptions, normalizeLoadOptions } from "../options.js";
import type { NameClaims } from "../validate/accept-tools.js";
import { CompileAhead } from "./compile-ahead.js";
import { lateFaultDiagnostics, lateTamperingWarnings, tamperingWarning } from "./fault-diagnostics.js";
import { loadAndAccept } from "./load-and-accept.js";
import { registerIntoSession } from "./register-into-session.js";
import type { LoadCustomToolsResult, LoadedCustomTool } from "./types.js";

/**
 * Discovers, compiles and loads custom tool modules (docs/contract.md §5). Never throws for a module's
 * fault: each one becomes a {@link Diagnostic} and loading goes on with the next module.
 * Modules are imported one after another, in discovery order (compilation runs a few modules
 * ahead, bounded); the first module to claim a tool name
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
  if (context.sourceMaps) enableSourceMaps();
  const discovered = await discoverToolModules({
    paths: context.paths,
    cwd: context.cwd,
    fileSystem: context.fileSystem,
  });
  const diagnostics: Diagnostic[] = [...discovered.diagnostics];
  const claims: NameClaims = new Map();
  const api = context.host.createAPI();
  const compiler = createModuleCompiler(context.compiler, context.cacheDir, (warning) =>
    diagnostics.push(warning),
  );
  // Announced up front, so the first cache miss builds every stale entry of the batch in one
  // esbuild build, instead of a few at a time as the load loop asks for them.
  compiler.plan?.(discovered.modules.map((module) => module.resolvedPath));
  if (context.session !== undefined) context.host.setActiveSession(context.session);

  const compileAhead = new CompileAhead(compiler, discovered.modules);
  const guard = new LoadGuard(); // released in the `finally` below, whatever happens
  // Taken once the guards are installed, so their wrappers are part of the expected state;
  // compared after each module: what changed since the previous one is that module's doing.
  const checkGlobals = watchGlobals();
  // Tools are registered into the session once the batch has ended, so that a module found to
  // be hostile late in the batch (process.exit from a timer) can still be left out.
  const accepted: Array<{ tool: LoadedCustomTool["tool"]; module: DiscoveredModule }> = [];
  let lateChanges: GlobalChange[] = [];
  try {
    let completed = 0;
    // An index loop: a module may have replaced the array iterator (it is restored after it).
    for (let index = 0; index < discovered.modules.length; index++) {
      const module = discovered.modules[index] as DiscoveredModule;
      const before = { diagnostics: diagnostics.length };
      const compiled = compileAhead.take(index);
      // Built-ins the module changed are put back as soon as its code has run, before the
      // loader looks at what it produced (one check per module, see `afterStep`).
      let changes: GlobalChange[] = [];
      const contributed = await loadAndAccept(
        module,
        {
          compiled,
          api,
          factoryTimeoutMs: context.factoryTimeoutMs,
          faults: guard.faultsOf(module.resolvedPath),
          afterStep: () => {
            changes = checkGlobals();
          },
        },
        context.reservedNames,
        claims,
      );
      diagnostics.push(...contributed.diagnostics);
      for (const tool of contributed.tools) accepted.push({ tool, module });
      if (changes.length > 0) diagnostics.push(tamperingWarning(module, changes));
      completed += 1;
      context.onProgress?.({
        completed,
        total: discovered.modules.length,
        module,
        tools: contributed.tools.map((tool) => ({
          tool,
          path: module.path,
          resolvedPath: module.resolvedPath,
        })),
        diagnostics: diagnostics.length - before.diagnostics,
      });
    }
  } finally {
    // The guards come off whatever the compiler does on its way out.
    try {
      await compileAhead.settle();
      await compiler.close();
    } finally {
      // What timers and callbacks of the modules changed after their own check (the guard's
      // last turn lets due timers run) is undone too, so the host gets its built-ins back.
      await guard.close(() => {
        lateChanges = checkGlobals();
      });
    }
  }
  if (lateChanges.length > 0)
    diagnostics.push(...lateTamperingWarnings(discovered.modules, guard, lateChanges));

  const skipped = new Set<string>();
  for (const module of discovered.modules) {
    const late = lateFaultDiagnostics(module, guard.faultsOf(module.resolvedPath));
    diagnostics.push(...late);
    if (late.some((diagnostic) => diagnostic.severity === "error")) skipped.add(module.resolvedPath);
  }
  const registration = registerIntoSession(context.session, {
    accepted: accepted.filter(({ module }) => !skipped.has(module.resolvedPath)),
    modules: discovered.modules,
    roots: context.paths.map((path) => expandPath(path, context.cwd)),
    diagnostics,
  });
  diagnostics.push(...registration.refused);
  return {
    tools: registration.tools,
    diagnostics,
    modules: discovered.modules,
    changes: registration.changes,
  };
}
