import type { Diagnostic } from "@tooldock/sdk";
import type { LoadReport, ToolEntry } from "./report-types.js";

/** What one module (or one path that never became a module) contributed to a load. */
export interface ModuleGroup {
  path: string;
  tools: ToolEntry[];
  diagnostics: Diagnostic[];
}

/**
 * Groups tools and diagnostics by module, in discovery order. A diagnostic about a path that
 * is not a discovered module (a missing folder, a manifest entry) gets a group of its own.
 */
export function groupByModule(load: LoadReport): ModuleGroup[] {
  const groups = new Map<string, ModuleGroup>();
  const aliases = new Map<string, string>();
  const group = (path: string) => {
    const key = aliases.get(path) ?? path;
    let found = groups.get(key);
    if (!found) {
      found = { path: key, tools: [], diagnostics: [] };
      groups.set(key, found);
    }
    return found;
  };
  for (const module of load.modules) {
    aliases.set(module.resolvedPath, module.path);
    group(module.path);
  }
  for (const tool of load.tools) group(tool.path).tools.push(tool);
  for (const diagnostic of load.diagnostics) {
    const known = aliases.has(diagnostic.path) || groups.has(diagnostic.path);
    const path =
      !known && diagnostic.resolvedPath && aliases.has(diagnostic.resolvedPath)
        ? diagnostic.resolvedPath
        : diagnostic.path;
    group(path).diagnostics.push(diagnostic);
  }
  return [...groups.values()];
}
