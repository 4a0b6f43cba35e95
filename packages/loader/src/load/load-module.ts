import type { CustomToolAPI, Diagnostic } from "@tooldock/sdk";
import { CompileFailure } from "../compile/compile-failure.js";
import type { Evaluate } from "../compile/module-compiler.js";
import { createDiagnostic, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { ModuleFaults } from "../guards/module-faults.js";
import { runGuarded } from "../guards/process-exit-guard.js";
import { compileDiagnostic, unreadableDiagnostic } from "./compile-diagnostic.js";
import { describeExports, resolveFactory } from "./resolve-factory.js";

/** The entries a module's factory returned, or the diagnostic that stopped it. */
export type ModuleOutcome = { ok: true; entries: unknown[] } | { ok: false; diagnostic: Diagnostic };

interface LoadModuleStep {
  /** The module's compilation, started earlier (see `CompileAhead`). */
  compiled: Promise<Evaluate>;
  api: CustomToolAPI;
  factoryTimeoutMs: number;
  /** Where faults the module commits from its timers and callbacks are recorded (see `LoadGuard`). */
  faults?: ModuleFaults;
}

/**
 * Imports the compiled module and runs its factory, each fault becoming one diagnostic:
 * `E_COMPILE`, `E_IMPORT`, `E_PROCESS_EXIT`, `E_NO_FACTORY`, `E_FACTORY_THROW`,
 * `E_FACTORY_TIMEOUT`. The import and the factory run with `process.exit` guarded.
 */
export async function loadModule(module: DiscoveredModule, step: LoadModuleStep): Promise<ModuleOutcome> {
  const { path, resolvedPath } = module;
  const fail = (diagnostic: Diagnostic): ModuleOutcome => ({ ok: false, diagnostic });

  let evaluate: Evaluate;
  try {
    evaluate = await step.compiled;
  } catch (error) {
    return fail(unreadableDiagnostic(module, error) ?? compileDiagnostic(module, error));
  }

  // The import runs under the same deadline: top-level await that never settles is a fault too.
  const imported = await runGuarded(evaluate, step.factoryTimeoutMs, step.faults);
  if (imported.status === "exit")
    return fail(exitDiagnostic(module, imported.exitCode, "while it was imported"));
  if (imported.status === "timeout") {
    return fail(
      createDiagnostic("E_IMPORT", {
        message: `Importing ${path} did not finish within ${imported.timeoutMs} ms (top-level await never settled).`,
        path,
        resolvedPath,
        hint: "Do not wait at the top level of a tool module; start slow work inside the factory or execute().",
      }),
    );
  }
  if (imported.status === "throw") {
    const unreadable = unreadableDiagnostic(module, imported.error);
    if (unreadable !== undefined) return fail(unreadable);
    if (isCompileFailure(imported.error)) return fail(compileDiagnostic(module, imported.error));
    return fail(
      createDiagnostic("E_IMPORT", {
        message: `Importing ${path} threw: ${describeError(imported.error)}`,
        path,
        resolvedPath,
        hint: "Fix the error the module throws at its top level; code that may fail belongs in the factory or in execute().",
      }),
    );
  }

  let factory: ReturnType<typeof resolveFactory>;
  let exported: string;
  try {
    factory = resolveFactory(imported.value);
    exported = factory === undefined ? describeExports(imported.value) : "";
  } catch (error) {
    factory = undefined;
    exported = `reading its exports threw (${describeError(error)})`;
  }
  if (factory === undefined) {
    return fail(
      createDiagnostic("E_NO_FACTORY", {
        message: `${path} exports no tool factory: ${exported}.`,
        path,
        resolvedPath,
        hint: "Default-export a function that receives `pi` and returns a tool or an array of tools, e.g. `export default (pi) => ({ name, label, description, parameters, execute })`.",
      }),
    );
  }

  const produced = await runGuarded(() => factory(step.api), step.factoryTimeoutMs, step.faults);
  if (produced.status === "exit") return fail(exitDiagnostic(module, produced.exitCode, "in its factory"));
  if (produced.status === "timeout") {
    return fail(
      createDiagnostic("E_FACTORY_TIMEOUT", {
        message: `The factory of ${path} did not settle within ${produced.timeoutMs} ms.`,
        path,
        resolvedPath,
        hint: "Return the tools promptly and start slow work lazily in execute(), or raise factoryTimeoutMs.",
      }),
    );
  }
  if (produced.status === "throw") {
    return fail(
      createDiagnostic("E_FACTORY_THROW", {
        message: `The factory of ${path} threw: ${describeError(produced.error)}`,
        path,
        resolvedPath,
        hint: "Fix the error in the factory; it runs once, when the module loads, with the `pi` API as its argument.",
      }),
    );
  }
  const entries = Array.isArray(produced.value) ? produced.value : [produced.value];
  return { ok: true, entries };
}

function exitDiagnostic(module: DiscoveredModule, exitCode: unknown, when: string): Diagnostic {
  return createDiagnostic("E_PROCESS_EXIT", {
    message: `${module.path} called process.exit(${exitCode === undefined ? "" : String(exitCode)}) ${when}; Tooldock blocked it and skipped the module.`,
    path: module.path,
    resolvedPath: module.resolvedPath,
    hint: "Throw an error instead of exiting: a tool module must never end the host process.",
  });
}

/** `instanceof CompileFailure`, false for a thrown value whose prototype cannot be read. */
function isCompileFailure(error: unknown): error is CompileFailure {
  try {
    return error instanceof CompileFailure;
  } catch {
    return false;
  }
}
