import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, createWarning, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import { runGuarded } from "../guards/process-exit-guard.js";
import { acceptTools, type NameClaims } from "../validate/accept-tools.js";
import { exitDiagnostic, type LoadModuleStep, loadModule } from "./load-module.js";

/** What one module contributes to a batch: its accepted tools and its diagnostics. */
export interface ModuleContribution {
  tools: CustomTool[];
  diagnostics: Diagnostic[];
}

/**
 * Loads one module ({@link loadModule}) and checks the entries its factory returned
 * ({@link acceptTools}), all inside a guarded step of the module (`runGuarded`, with no
 * deadline of its own: the import and the factory keep theirs). Reading what a module
 * produced runs its code again: a getter of its exports or of a tool, a Proxy trap of the
 * list it returned, a `message` getter or `toJSON` of what it threw. A `process.exit`,
 * `reallyExit`, `abort` or `kill` made there is blocked like one made by the import or the
 * factory: the module contributes no tool and one `E_PROCESS_EXIT`, and the names it
 * claimed are released. Never rejects.
 */
export async function loadAndAccept(
  module: DiscoveredModule,
  step: LoadModuleStep,
  reserved: ReadonlySet<string>,
  claims: NameClaims,
): Promise<ModuleContribution> {
  const guarded = await runGuarded(
    async (): Promise<ModuleContribution> => {
      const outcome = await loadModule(module, step);
      if (!outcome.ok) return contribution([], [outcome.diagnostic]);
      try {
        if (outcome.entries.length === 0)
          return contribution([], [noToolsWarning(module, outcome.returnedNothing)]);
        const checked = acceptTools(module, outcome.entries, reserved, claims);
        return contribution(checked.tools, checked.diagnostics);
      } catch (error) {
        // A list whose reads throw (a Proxy): described here, still inside the guarded step.
        return contribution([], [checkThrewDiagnostic(module, describeError(error))]);
      }
    },
    undefined,
    step.faults,
  );
  if (guarded.status === "ok") return guarded.value;
  // Whatever it claimed before it stopped is free again for the modules after it.
  for (const [name, owner] of claims) if (owner === module.path) claims.delete(name);
  if (guarded.status === "exit")
    return contribution(
      [],
      [exitDiagnostic(module, guarded.call, "while Tooldock read what it exported or returned")],
    );
  // Not reached: loadModule never rejects and the checks above catch what they throw.
  return contribution([], [checkThrewDiagnostic(module, "an error inside Tooldock")]);
}

function checkThrewDiagnostic(module: DiscoveredModule, what: string): Diagnostic {
  return createDiagnostic("E_INVALID_TOOL", {
    message: `Checking the tools returned by the factory of ${module.path} threw: ${what}`,
    path: module.path,
    resolvedPath: module.resolvedPath,
    hint: "Return plain objects (no throwing getters or proxies) with `name`, `label`, `description`, `parameters` and `execute`.",
  });
}

/** A null-prototype result: it settles a guarded step, which follows no inherited `then`. */
function contribution(tools: CustomTool[], diagnostics: Diagnostic[]): ModuleContribution {
  return { __proto__: null, tools, diagnostics } as ModuleContribution;
}

/**
 * A factory that returned an empty array, `undefined` or `null` loads fine but contributes
 * nothing: say so. Modules written for pi and its forks do that on purpose when they are not
 * configured (an API key missing from the environment), so the hint says to look there too.
 */
function noToolsWarning(
  module: { path: string; resolvedPath: string },
  returned: "undefined" | "null" | undefined,
): Diagnostic {
  const what = returned === undefined ? "an empty list" : returned;
  return createWarning("W_NO_TOOLS", {
    message: `The factory of ${module.path} returned no tools (${what}): the module loaded but provides none.`,
    path: module.path,
    resolvedPath: module.resolvedPath,
    hint:
      "Factories often return nothing when they are not configured: check the environment variables or " +
      "settings the module reads (an API key). Otherwise return at least one tool, or remove the module from the tool paths.",
  });
}
