// Everything exported here is public API. Keep this list curated; never `export *`.

/**
 * The most tools one module may return; a module over the limit contributes none
 * (`E_INVALID_TOOL`). The `E_NAME_CONFLICT` and `E_NAME_INVALID` diagnostics the loader
 * reports, for hosts that claim names across processes.
 */
export {
  MAX_TOOLS_PER_MODULE,
  nameConflict as nameConflictDiagnostic,
  nameInvalid as nameInvalidDiagnostic,
} from "./accept/accept-tools.js";
export { CACHE_DIR_ENV } from "./compile/cache-dir.js";
export {
  type DiscoverToolModulesOptions,
  type DiscoverToolModulesResult,
  discoverToolModules,
} from "./discover/discover-tool-modules.js";
export { hasToolManifest } from "./discover/read-manifest.js";
export type { DiscoveredModule } from "./discover/types.js";
export { type FormatDiagnosticOptions, formatDiagnostic } from "./format/format-diagnostic.js";
export { type EscapeTerminalTextOptions, escapeTerminalText } from "./format/terminal-text.js";
export { TOOL_MESSAGE_CHANNEL, type ToolMessageEvent } from "./host-api/send-message.js";
export {
  PENDING_STORE_UNAVAILABLE_MESSAGE,
  ToolHost,
  type ToolHostOptions,
  type ToolHostSession,
  type UISource,
} from "./host-api/tool-host.js";
export type { IsolatedToolHost, IsolatedToolHostEvent } from "./isolation/isolated-tools.js";
export {
  DEFAULT_TOOL_HOST_MEMORY_MB,
  type IsolationOptions,
} from "./isolation/isolation-options.js";
export { loadCustomTools, type PrestartedToolHost, prestartToolHost } from "./load/load-custom-tools.js";
export {
  type CheckSessionHooksOptions,
  checkSessionHooks,
  ON_SESSION_FAILED_WARNING,
  onSessionFailedDiagnostic,
  reportSessionHookFailures,
} from "./load/session-hooks.js";
export type { LoadChanges, LoadCustomToolsResult, LoadedCustomTool } from "./load/types.js";
export type { CompilerName } from "./options.js";
export {
  COMPILER_ENV,
  DEFAULT_FACTORY_TIMEOUT_MS,
  FACTORY_TIMEOUT_ENV,
  type LoadCustomToolsOptions,
  type LoadEnvironment,
  type LoadProgress,
  type LoadSession,
  readLoadEnvironment,
  SOURCE_MAPS_ENV,
} from "./options.js";
export {
  DEFAULT_RELOAD_LIMIT,
  DEFAULT_WATCH_DEBOUNCE_MS,
  type ToolsReload,
  type ToolWatcher,
  type WatchCustomToolsOptions,
  watchCustomTools,
} from "./watch/watch-custom-tools.js";
