import { RESOLVE_TOOL_NAME, validateTool, validateToolName } from "@tooldock/runtime";
import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { createDiagnostic } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";

/**
 * The most tools one module may return. No model takes that many tools in one request, and
 * checking tens of thousands of schemas would stall the load; a module over the limit
 * contributes none (`E_INVALID_TOOL`).
 */
export const MAX_TOOLS_PER_MODULE = 1000;

/** Names claimed so far in a load: tool name → path of the module that claimed it first. */
export type NameClaims = Map<string, string>;

/**
 * Checks every entry a module's factory returned with the runtime's `validateTool` (the check
 * `Session.register` makes too) and keeps the valid ones, each read once into the frozen record
 * everyone after the loader uses, so what was checked is what runs. Its validator is compiled
 * here, so a schema nothing can validate never reaches a call. The first module to claim a
 * name keeps it; invalid entries claim none.
 */
export function acceptTools(
  module: DiscoveredModule,
  entries: unknown[],
  reserved: ReadonlySet<string>,
  claims: NameClaims,
): { tools: CustomTool[]; diagnostics: Diagnostic[] } {
  const { path } = module;
  const tools: CustomTool[] = [];
  const diagnostics: Diagnostic[] = [];
  if (entries.length > MAX_TOOLS_PER_MODULE) {
    const tooMany = createDiagnostic("E_INVALID_TOOL", {
      message: `The factory of ${path} returned ${entries.length} entries; a module may return at most ${MAX_TOOLS_PER_MODULE} tools, so none of them was loaded.`,
      ...module,
      hint: `Split the tools over several modules, or return only the tools the model needs (at most ${MAX_TOOLS_PER_MODULE} per module).`,
    });
    return { tools, diagnostics: [tooMany] };
  }
  const options = {
    ...module,
    reserved: reservedWithResolve(reserved),
    holderOf: (name: string) => claims.get(name),
    compileValidator: true,
  };
  entries.forEach((entry, index) => {
    const checked = validateTool(entry, { ...options, entry: index });
    diagnostics.push(...checked.diagnostics);
    if (!checked.ok) return;
    claims.set(checked.tool.name, path);
    tools.push(checked.tool);
  });
  return { tools, diagnostics };
}

function reservedWithResolve(reserved: ReadonlySet<string>): { has(name: string): boolean } {
  return { has: (name) => name === RESOLVE_TOOL_NAME || reserved.has(name) };
}

/**
 * The `E_NAME_INVALID` diagnostic for a name that cannot be used (it breaks the pattern, or
 * is `resolve` or one of `reserved`), or undefined when it can: the runtime's
 * `validateToolName`, for hosts that claim names across processes.
 */
export function nameInvalid(
  module: DiscoveredModule,
  name: string,
  reserved: ReadonlySet<string>,
): Diagnostic | undefined {
  return validateToolName(name, { ...module, reserved: reservedWithResolve(reserved) });
}

/** The `E_NAME_CONFLICT` diagnostic for a name another module (or the session) already holds. */
export function nameConflict(module: DiscoveredModule, name: string, owner: string): Diagnostic {
  return validateToolName(name, { ...module, holderOf: () => owner }) as Diagnostic;
}
