import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import type { DiscoveredModule } from "../discover/types.js";

/** A tool that loaded, with the module it came from. */
export interface LoadedCustomTool {
  tool: CustomTool;
  /** The module path as given or discovered. */
  path: string;
  /** The module's real path. */
  resolvedPath: string;
}

/** What `loadCustomTools` returns: loading never throws for a module's fault. */
export interface LoadCustomToolsResult {
  tools: LoadedCustomTool[];
  diagnostics: Diagnostic[];
  modules: DiscoveredModule[];
}
