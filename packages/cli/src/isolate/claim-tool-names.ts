import type { DiscoveredModule } from "@tooldock/loader";
import { RESOLVE_TOOL_NAME, validateToolName } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { BUILT_IN_TOOL_NAMES } from "../load/built-in-tools.js";
import type { ToolEntry } from "../report/report-types.js";

/** Names no module may claim: the CLI's built-ins and `resolve`. */
const RESERVED: ReadonlySet<string> = new Set([...BUILT_IN_TOOL_NAMES, RESOLVE_TOOL_NAME]);

/** Tool name → path of the module that claimed it first. */
export type NameClaims = Map<string, string>;

/**
 * The cross-module name check the loader makes in-process, made by the parent of isolated
 * loads (each child saw one module only, and checked each tool with the runtime's
 * `validateTool`): the name steps of that same check (`validateToolName`, same wording), in
 * discovery order. The first module to claim a name keeps it and a later one gets
 * `E_NAME_CONFLICT` naming both files; a child that reports one name twice gets it for the
 * second. A name the loader never accepts (`resolve`, a built-in, one that breaks the
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
  const options = {
    path: module.path,
    resolvedPath: module.resolvedPath,
    reserved: RESERVED,
    holderOf: (name: string) => claims.get(name),
  };
  for (const tool of tools) {
    const refused = validateToolName(tool.name, options);
    if (refused !== undefined) {
      diagnostics.push(refused);
      continue;
    }
    claims.set(tool.name, module.path);
    kept.push(tool);
  }
  return { tools: kept, diagnostics };
}
