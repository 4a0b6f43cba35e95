import type { CustomTool } from "@tooldock/sdk";

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
