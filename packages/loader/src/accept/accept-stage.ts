import type { Diagnostic } from "@tooldock/sdk";
import { createDiagnostic, createWarning, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { ModuleOutcome } from "../evaluate/load-module.js";
import { acceptTools, type NameClaims } from "./accept-tools.js";

/** The output of the accept stage for one module: its accepted tool records and its diagnostics. */
export type ModuleContribution = ReturnType<typeof acceptTools>;

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
 * frozen record). A returned list whose reads throw (a Proxy) is one `E_INVALID_TOOL`, and
 * the names the module claimed before are free again. Synchronous; never throws.
 */
export function accept(
  module: DiscoveredModule,
  outcome: ModuleOutcome,
  acceptance: Acceptance,
): ModuleContribution {
  if (!outcome.ok) return { tools: [], diagnostics: [outcome.diagnostic] };
  const warnings = outcome.warnings ?? [];
  try {
    if (outcome.entries.length === 0)
      return { tools: [], diagnostics: [...warnings, noToolsWarning(module, outcome.returnedNothing)] };
    const checked = acceptTools(module, outcome.entries, acceptance.reserved, acceptance.claims);
    return { tools: checked.tools, diagnostics: [...warnings, ...checked.diagnostics] };
  } catch (error) {
    // `validateTool` never throws: what threw is the list itself. Whatever the module claimed
    // before is free again for the modules after it.
    for (const [name, owner] of acceptance.claims) if (owner === module.path) acceptance.claims.delete(name);
    const diagnostic = createDiagnostic("E_INVALID_TOOL", {
      message: `Checking the tools returned by the factory of ${module.path} threw: ${describeError(error)}`,
      ...module,
      hint: "Return plain objects (no throwing getters or proxies) with `name`, `label`, `description`, `parameters` and `execute`.",
    });
    return { tools: [], diagnostics: [diagnostic] };
  }
}

/**
 * A factory that returned an empty array, `undefined` or `null` loads fine but contributes
 * nothing: say so. Modules written for pi and its forks do that on purpose when they are not
 * configured (an API key missing from the environment), so the hint says to look there too.
 */
function noToolsWarning(module: DiscoveredModule, returned: "undefined" | "null" | undefined): Diagnostic {
  const what = returned === undefined ? "an empty list" : returned;
  return createWarning("W_NO_TOOLS", {
    message: `The factory of ${module.path} returned no tools (${what}): the module loaded but provides none.`,
    ...module,
    hint: noToolsHint(),
  });
}

/**
 * The hint of the `W_NO_TOOLS` warning of a factory that returned nothing. With `toolHost`
 * (the module was loaded in one, `isolation: "process"`), the names of the environment
 * variables the tool host was given: it does not see the rest of the host's environment, so
 * an API key set there is missing in the tool host, and the hint says how to pass it.
 */
export function noToolsHint(toolHost?: { env: readonly string[] }): string {
  const otherwise = "Otherwise return at least one tool, or remove the module from the tool paths.";
  if (toolHost === undefined)
    return (
      "Factories often return nothing when they are not configured: check the environment variables or " +
      `settings the module reads (an API key). ${otherwise}`
    );
  return (
    "Factories often return nothing when they are not configured (an API key missing from the environment). " +
    `It was loaded in a tool host, which sees only ${toolHost.env.length > 0 ? toolHost.env.join(", ") : "no variable"} ` +
    "of this environment: pass the variables the module reads with isolation.env (the CLI's --allow-env NAME), " +
    `or load it in-process (the CLI's --no-isolate) if you trust it. ${otherwise}`
  );
}
