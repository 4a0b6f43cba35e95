import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, createWarning, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { EvaluatedModule } from "../evaluate/evaluate-stage.js";
import { exitDiagnostic } from "../evaluate/load-module.js";
import type { ModuleFaults } from "../guards/module-faults.js";
import { andThen } from "../guards/now-or-later.js";
import { type GuardedOutcome, runGuardedStep } from "../guards/process-exit-guard.js";
import { acceptTools, type NameClaims } from "./accept-tools.js";

/** The output of the accept stage for one module: its accepted tool records and its diagnostics. */
export interface ModuleContribution {
  tools: CustomTool[];
  diagnostics: Diagnostic[];
}

/** What the accept stage checks against, shared by the modules of a load. */
export interface Acceptance {
  /** Names no module may claim (the host's built-ins; `resolve` always). */
  reserved: ReadonlySet<string>;
  /** Names claimed so far in the load: the first module to claim a name keeps it. */
  claims: NameClaims;
}

/**
 * Stage 4, accept: a factory's result → accepted tool records and diagnostics. Checks each
 * entry ({@link acceptTools}: the runtime's `validateTool`, every field read once into a
 * frozen record) inside a guarded step of the module: reading what a module returned runs its
 * code (a getter of a tool, a Proxy trap of the list), and a `process.exit`, `reallyExit`,
 * `abort` or `kill` made there is blocked like one made by its import or factory: the module
 * contributes no tool and one `E_PROCESS_EXIT`, and the names it claimed are released. A
 * returned list whose reads throw (a Proxy) is one `E_INVALID_TOOL` and releases them too.
 * The checks are synchronous, so the contribution comes back without a promise unless the
 * module's code made the check wait. Never rejects.
 */
export function accept(
  evaluated: EvaluatedModule,
  acceptance: Acceptance,
  faults: ModuleFaults | undefined,
): ModuleContribution | Promise<ModuleContribution> {
  const { module, outcome } = evaluated;
  if (!outcome.ok) return contribution([], [outcome.diagnostic]);
  // The checks are synchronous: their outcome comes back without a promise (see runGuardedStep).
  const checking = runGuardedStep(
    (): ModuleContribution => {
      const warnings = outcome.warnings ?? [];
      if (outcome.entries.length === 0)
        return contribution([], [...warnings, noToolsWarning(module, outcome.returnedNothing)]);
      const checked = acceptTools(module, outcome.entries, acceptance.reserved, acceptance.claims);
      return contribution(checked.tools, [...warnings, ...checked.diagnostics]);
    },
    undefined,
    faults,
  );
  return andThen(checking, (guarded) => accepted(module, guarded, acceptance));
}

/** The contribution of a guarded check: its value, or nothing and why when it stopped. */
function accepted(
  module: DiscoveredModule,
  guarded: GuardedOutcome<ModuleContribution>,
  acceptance: Acceptance,
): ModuleContribution {
  if (guarded.status === "ok") return guarded.value;
  // Whatever it claimed before it stopped is free again for the modules after it.
  for (const [name, owner] of acceptance.claims) if (owner === module.path) acceptance.claims.delete(name);
  if (guarded.status === "exit")
    return contribution([], [exitDiagnostic(module, guarded.call, "while Tooldock read what it returned")]);
  // `validateTool` never throws: what threw is the list itself (a Proxy whose reads throw).
  const what = guarded.status === "throw" ? describeError(guarded.error) : "an error inside Tooldock";
  return contribution([], [checkThrewDiagnostic(module, what)]);
}

function checkThrewDiagnostic(module: DiscoveredModule, what: string): Diagnostic {
  return createDiagnostic("E_INVALID_TOOL", {
    message: `Checking the tools returned by the factory of ${module.path} threw: ${what}`,
    ...module,
    hint: "Return plain objects (no throwing getters or proxies) with `name`, `label`, `description`, `parameters` and `execute`.",
  });
}

function contribution(tools: CustomTool[], diagnostics: Diagnostic[]): ModuleContribution {
  return { tools, diagnostics };
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
    ...module,
    hint:
      "Factories often return nothing when they are not configured: check the environment variables or " +
      "settings the module reads (an API key). Otherwise return at least one tool, or remove the module from the tool paths.",
  });
}
