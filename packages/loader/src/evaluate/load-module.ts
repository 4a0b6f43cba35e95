import type { CustomToolAPI, CustomToolContext, Diagnostic, DiagnosticErrorCode } from "@tooldock/sdk";
import type { BuildUnit } from "../build/build-stage.js";
import { CompileFailure } from "../compile/compile-failure.js";
import type { Evaluate } from "../compile/prepared-module.js";
import { createDiagnostic, type DiagnosticFields, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { ModuleFaults } from "../guards/module-faults.js";
import { type GuardedOutcome, runGuardedStep } from "../guards/process-exit-guard.js";
import { compileDiagnostic, unreadableDiagnostic } from "./compile-diagnostic.js";
import { ExtensionRegistrations } from "./extension-api.js";
import { opencodeExportNames, opencodeTools } from "./opencode-tools.js";
import { thrownText } from "./permission-denied.js";
import { describeExports, resolveFactory } from "./resolve-factory.js";

/** The entries a module's factory returned, or the diagnostic that stopped it. */
export type ModuleOutcome =
  | {
      ok: true;
      entries: unknown[];
      /** Set when the factory returned `undefined` or `null` and registered no tool (entries is then empty). */
      returnedNothing?: "undefined" | "null";
      /** Warnings about the module that do not stop it (pi extension features it used). */
      warnings?: Diagnostic[];
    }
  | { ok: false; diagnostic: Diagnostic };

export interface LoadModuleStep {
  api: CustomToolAPI;
  factoryTimeoutMs: number;
  /** Where faults the module commits from its timers and callbacks are recorded (see `LoadGuard`). */
  faults?: ModuleFaults;
  /** Whether a module that exports opencode tools (`tool({ description, args, execute })`) loads them. */
  opencode?: boolean;
}

/**
 * Stage 3, evaluate: imports the compiled module and runs its factory, guarded (see
 * `runGuardedStep`), each fault one diagnostic. The outcome comes back at once when nothing waits (a member of an imported
 * pack and a synchronous factory), else as a promise. Never throws or rejects: a fault of the
 * loader's own work on the module is an `E_IMPORT`.
 */
export function loadModule(unit: BuildUnit, step: LoadModuleStep): ModuleOutcome | Promise<ModuleOutcome> {
  const { module } = unit;
  const internal = (error: unknown) => internalFailure(module, error);
  try {
    // Compiled already when the unit was taken: the module loads without waiting for it.
    if (unit.ready !== undefined) {
      const outcome = importModule(module, unit.ready.evaluate, step);
      return outcome instanceof Promise ? outcome.catch(internal) : outcome;
    }
    return unit.prepared
      .then(
        (prepared) => importModule(module, prepared.evaluate, step),
        (error: unknown) => fail(unreadableDiagnostic(module, error) ?? compileDiagnostic(module, error)),
      )
      .catch(internal);
  } catch (error) {
    return internal(error);
  }
}

/** `next(value)`: at once when `value` is no promise (no turn of the microtask queue), else once it settled. */
function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

function importModule(
  module: DiscoveredModule,
  evaluate: Evaluate,
  step: LoadModuleStep,
): ModuleOutcome | Promise<ModuleOutcome> {
  // The import runs under the same deadline: top-level await that never settles is a fault too.
  const importing = runGuardedStep(evaluate, step.factoryTimeoutMs, step.faults);
  return andThen(importing, (imported) => runFactory(module, imported, step));
}

function runFactory(
  module: DiscoveredModule,
  imported: GuardedOutcome<unknown>,
  step: LoadModuleStep,
): ModuleOutcome | Promise<ModuleOutcome> {
  const { path } = module;
  if (imported.status === "exit") return fail(exitDiagnostic(module, imported.call, "while it was imported"));
  if (imported.status === "timeout") {
    return failWith("E_IMPORT", {
      message: `Importing ${path} did not finish within ${imported.timeoutMs} ms (top-level await never settled).`,
      ...module,
      hint: "Do not wait at the top level of a tool module; start slow work inside the factory or execute().",
    });
  }
  if (imported.status === "throw") {
    const unreadable = unreadableDiagnostic(module, imported.error);
    if (unreadable !== undefined) return fail(unreadable);
    if (imported.error instanceof CompileFailure) return fail(compileDiagnostic(module, imported.error));
    const thrown = thrownText(imported.error);
    return failWith("E_IMPORT", {
      message: `Importing ${path} threw: ${thrown.text}`,
      ...module,
      hint:
        thrown.hint ??
        "Fix the error the module throws at its top level; code that may fail belongs in the factory or in execute().",
    });
  }

  let factory: ReturnType<typeof resolveFactory>;
  let opencode: string[] = [];
  let exported = "";
  try {
    factory = resolveFactory(imported.value);
    if (factory === undefined) {
      opencode = opencodeExportNames(imported.value);
      if (opencode.length > 0 && step.opencode === true) {
        const value = imported.value as Record<string, unknown>;
        const { tools, diagnostics } = opencodeTools(value, opencode, module, step.api);
        return { ok: true, entries: tools, ...(diagnostics.length > 0 ? { warnings: diagnostics } : {}) };
      }
      exported = describeExports(imported.value);
    }
  } catch (error) {
    exported = `reading its exports threw (${describeError(error)})`;
  }
  if (factory === undefined) {
    if (opencode.length > 0)
      return failWith("E_NO_FACTORY", {
        message: `${path} exports opencode tools (${opencode.join(", ")}), and loading them is off.`,
        ...module,
        hint: "Turn on opencode tools: loadCustomTools({ …, opencode: true }), or the CLI's --opencode.",
      });
    return failWith("E_NO_FACTORY", {
      message: `${path} exports no tool factory: ${exported}.`,
      ...module,
      hint: "Default-export a function that receives `pi` and returns a tool or an array of tools, e.g. `export default (pi) => ({ name, label, description, parameters, execute })`.",
    });
  }

  // A synchronous factory (the common case) settles without a promise of its own. The module's
  // `pi` is the host's with pi's extension API on top (`registerTool`, `on`, …).
  const found = factory;
  const extension = new ExtensionRegistrations(module);
  const api = extension.api(step.api);
  const producing = runGuardedStep(() => found(api), step.factoryTimeoutMs, step.faults);
  return andThen(producing, (produced) => {
    if (produced.status !== "ok" || !extension.toolsAwaitStart)
      return factoryOutcome(module, produced, extension);
    // An extension that registers its tools when the session starts: its session_start
    // handlers run once now, under the factory's deadline, so that its tools load.
    const starting = runGuardedStep(
      () => extension.startAtLoad(loadContext(step.api)),
      step.factoryTimeoutMs,
      step.faults,
    );
    return andThen(starting, (started) =>
      factoryOutcome(
        module,
        started.status === "ok" ? produced : { ...started, duringStart: true },
        extension,
      ),
    );
  });
}

/** The context an extension's `session_start` handlers get when they run at load. */
function loadContext(api: CustomToolAPI): CustomToolContext {
  return {
    sessionId: "load",
    cwd: api.cwd,
    // pi always gives one; at load the conversation is empty.
    sessionManager: Object.freeze({
      getEntries: () => [],
      getBranch: () => [],
      getSessionFile: () => undefined,
      getSessionId: () => "load",
      getCwd: () => api.cwd,
    }),
    hasPendingActions: () => false,
    // No agent runs while the tools load: it is idle, nothing queued.
    isIdle: () => true,
    hasQueuedMessages: () => false,
    abort() {},
    pushPendingAction() {
      throw new Error("No session is running while the tools load: stage pending actions from a tool call.");
    },
  };
}

function factoryOutcome(
  module: DiscoveredModule,
  produced: GuardedOutcome<unknown> & { duringStart?: true },
  extension: ExtensionRegistrations,
): ModuleOutcome {
  const { path } = module;
  const duringStart = produced.duringStart === true;
  const where = duringStart ? "in its session_start handler" : "in its factory";
  const what = duringStart
    ? `The session_start handler of ${path}, run at load to register its tools,`
    : `The factory of ${path}`;
  if (produced.status === "exit") return fail(exitDiagnostic(module, produced.call, where));
  if (produced.status === "timeout") {
    return failWith("E_FACTORY_TIMEOUT", {
      message: `${what} did not settle within ${produced.timeoutMs} ms.`,
      ...module,
      hint:
        "Return the tools promptly and start slow work lazily in execute(), or give factories longer: the " +
        "loader's factoryTimeoutMs option, or the environment variable TOOLDOCK_FACTORY_TIMEOUT_MS for the " +
        "tooldock CLI (in a tool host, raise --isolate-timeout too: validate gives a factory at most half of it).",
    });
  }
  if (produced.status === "throw") {
    const thrown = thrownText(produced.error);
    return failWith("E_FACTORY_THROW", {
      message: `${what} threw: ${thrown.text}`,
      ...module,
      hint:
        thrown.hint ??
        "Fix the error in the factory; it runs once, when the module loads, with the `pi` API as its argument.",
    });
  }
  const value = produced.value;
  const returned = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  // The returned list is not read here (the accept stage reads it, under its guard).
  const entries = extension.entries(returned);
  const warnings = extension.warnings();
  const outcome: ModuleOutcome = { ok: true, entries };
  if (warnings.length > 0) outcome.warnings = warnings;
  // An unconfigured factory (no API key) returns nothing: no tools, not an invalid entry. An
  // extension returns nothing too, having registered its tools.
  if ((value === undefined || value === null) && !extension.used)
    outcome.returnedNothing = value === null ? "null" : "undefined";
  return outcome;
}

function internalFailure(module: DiscoveredModule, error: unknown): ModuleOutcome {
  return failWith("E_IMPORT", {
    message: `Loading ${module.path} failed inside Tooldock: ${describeError(error)}. Tooldock skipped the module.`,
    ...module,
    hint: "Please report this as a Tooldock bug.",
  });
}

function fail(diagnostic: Diagnostic): ModuleOutcome {
  return { ok: false, diagnostic };
}

function failWith(code: DiagnosticErrorCode, fields: DiagnosticFields): ModuleOutcome {
  return fail(createDiagnostic(code, fields));
}

/** `E_PROCESS_EXIT`: `call` is the blocked call, e.g. `process.exit(3)` or `process.abort()`. */
function exitDiagnostic(module: DiscoveredModule, call: string, when: string): Diagnostic {
  return createDiagnostic("E_PROCESS_EXIT", {
    message: `${module.path} called ${call} ${when}; Tooldock blocked it and skipped the module.`,
    ...module,
    hint: "Throw an error instead of exiting: a tool module must never end the host process.",
  });
}
