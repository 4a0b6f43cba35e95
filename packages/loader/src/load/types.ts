import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import type { DiscoveredModule } from "../discover/types.js";
import type { IsolatedToolHost } from "../isolation/isolated-tools.js";

/** A tool that loaded, with the module it came from. */
export interface LoadedCustomTool {
  tool: CustomTool;
  /** The module path as given or discovered. */
  path: string;
  /** The module's real path. */
  resolvedPath: string;
}

/**
 * What a load changed in its session, by tool name. A load into a session the loader already
 * loaded the same modules into replaces their tools (see the README, "Reload and watch").
 */
export interface LoadChanges {
  /** Names the session did not hold from these modules before. */
  added: string[];
  /** Names no module of the load provides any more; unregistered from the session. */
  removed: string[];
  /** Names a module provided again: the old tool was unregistered and the new one registered. */
  replaced: string[];
}

/** What `loadCustomTools` returns: loading never throws for a module's fault. */
export interface LoadCustomToolsResult {
  tools: LoadedCustomTool[];
  diagnostics: Diagnostic[];
  modules: DiscoveredModule[];
  /** What changed in the session; without `session`, every tool is `added`. */
  changes: LoadChanges;
  /**
   * With `isolation: "process"`: the tool host that runs the tools (its process, restarted
   * after a stop unless told not to). `close()` it when the host is done with the tools.
   */
  isolated?: IsolatedToolHost;
}
