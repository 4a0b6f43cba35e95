import type { DiscoveredModule } from "@tooldock/loader";
import type { Diagnostic } from "@tooldock/sdk";
import type { ToolEntry } from "../report/report-types.js";

/** Tool name → path of the module that claimed it first. */
export type NameClaims = Map<string, string>;

function nameConflict(module: DiscoveredModule, name: string, owner: string): Diagnostic {
  const diagnostic: Diagnostic = {
    code: "E_NAME_CONFLICT",
    severity: "error",
    message: `Tool name "${name}" in ${module.path} is already taken by ${owner}; the first module to claim a name keeps it.`,
    path: module.path,
  };
  if (module.resolvedPath !== module.path) diagnostic.resolvedPath = module.resolvedPath;
  diagnostic.toolName = name;
  diagnostic.hint = "Rename one of the two tools, or remove one of the modules from the tool paths.";
  return diagnostic;
}

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
      diagnostics.push(nameConflict(module, tool.name, owner));
      continue;
    }
    claims.set(tool.name, module.path);
    kept.push(tool);
  }
  return { tools: kept, diagnostics };
}
