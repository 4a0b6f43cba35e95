import { type DiscoveredModule, nameConflictDiagnostic } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";

/** Tool name → path of the module that claimed it first. */
export type NameClaims = Map<string, string>;

/**
 * The cross-module name check the loader makes in-process, made by the parent of isolated
 * loads (each child saw one module only): in discovery order, the first module to claim a
 * name keeps it and a later one gets `E_NAME_CONFLICT` naming both files, with the loader's
 * wording.
 */
export function claimToolNames(
  module: DiscoveredModule,
  tools: readonly ToolEntry[],
  claims: NameClaims,
): { tools: ToolEntry[]; diagnostics: Diagnostic[] } {
  const kept: ToolEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const tool of tools) {
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
