import type { Diagnostic } from "@tooldock/sdk";
import type { LoadChanges, LoadedCustomTool } from "../accept/types.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { IsolatedToolHost } from "../isolation/isolated-tools.js";

export type { LoadChanges, LoadedCustomTool } from "../accept/types.js";

/** What `loadCustomTools` returns: loading never throws for a module's fault. */
export interface LoadCustomToolsResult {
  tools: LoadedCustomTool[];
  diagnostics: Diagnostic[];
  modules: DiscoveredModule[];
  /** What changed in the session; without `session`, every tool is `added`. */
  changes: LoadChanges;
  /**
   * Settles once the compile cache holds what this load compiled: a cold load on Node 22.15+
   * evaluates its misses file by file and returns before esbuild has built their packs,
   * which it does next, for the next load. Await it before ending a short-lived process that
   * will load the same tools again (the CLI does). Resolves with the warnings of that work
   * (`W_CACHE_UNWRITABLE`, `W_COMPILER_FALLBACK`: the packs could not be written, so the next
   * load compiles again); never rejects; settled at once, with none, when there is nothing to write.
   */
  cached: Promise<Diagnostic[]>;
  /**
   * With `isolation: "process"`: the tool host that runs the tools (its process, restarted
   * after a stop unless told not to). `close()` it when the host is done with the tools.
   */
  isolated?: IsolatedToolHost;
}
