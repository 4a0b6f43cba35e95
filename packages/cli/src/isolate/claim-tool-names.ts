import { type DiscoveredModule, nameConflictDiagnostic, nameInvalidDiagnostic } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import type { ToolEntry } from "../report/report-types.js";

/** Names no module may claim: the CLI's built-ins (and `resolve`, which the check always refuses). */
const RESERVED: ReadonlySet<string> = new Set(BUILT_IN_TOOL_NAMES);

/** Tool name → path of the module that claimed it first. */
export type NameClaims = Map<string, string>;

/**
 * The cross-module name check the loader makes in-process, made by the parent of isolated
 * loads (each child saw one module only): in discovery order, the first module to claim a
 * name keeps it and a later one gets `E_NAME_CONFLICT` naming both files, with the loader's
 * wording. A name the loader never accepts (`resolve`, a built-in, one that breaks the
 * pattern) is refused with `E_NAME_INVALID` here too, whatever the child reported: an
 * isolated module cannot claim it by lying about itself.
 */
export function claimToolNames(
  module: DiscoveredModule,
  tools: readonly ToolEntry[],
  claims: NameClaims,
): { tools: ToolEntry[]; diagnostics: Diagnostic[] } {
  const kept: ToolEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const tool of tools) {
    const invalid = nameInvalidDiagnostic(module, tool.name, RESERVED);
    if (invalid !== undefined) {
      diagnostics.push(invalid);
      continue;
    }
    const owner = claims.get(tool.name);
    if (owner !== undefined && owner !== module.path) {
      diagnostics.push(nameConflictDiagnostic(module, tool.name, owner));
      continue;
    }
    claims.set(tool.name, module.path);
    kept.push(tool);
  }
  return { tools: kept, diagnostics };
}
