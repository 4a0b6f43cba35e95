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
/** The compile cache directory's environment variable. */
export { CACHE_DIR_ENV } from "./compile/cache-dir.js";
/** Finds tool modules in files, directories and package directories (docs/contract.md §5). */
export {
  type DiscoverToolModulesOptions,
  type DiscoverToolModulesResult,
  discoverToolModules,
} from "./discover/discover-tool-modules.js";
/** Whether a directory's package.json declares tools (`tooldock`, `omp` or `pi` field). */
export { hasToolManifest } from "./discover/read-manifest.js";
/** A discovered module: the path as found and its real path. */
export type { DiscoveredModule } from "./discover/types.js";
/** A load diagnostic as text for a person, as the CLI prints it (ANSI colours on request). */
export { type FormatDiagnosticOptions, formatDiagnostic } from "./format/format-diagnostic.js";
/** Makes a tool's text (a label, a message, a file name) safe to print on a terminal. */
export { type EscapeTerminalTextOptions, escapeTerminalText } from "./format/terminal-text.js";
/** `pi.sendMessage` reaches the host as an event on `host.events`, on this channel. */
export { TOOL_MESSAGE_CHANNEL, type ToolMessageEvent } from "./host-api/send-message.js";
/** The `pi` API owner: active session, UI and logger looked up at call time. */
export {
  PENDING_STORE_UNAVAILABLE_MESSAGE,
  ToolHost,
  type ToolHostOptions,
  type ToolHostSession,
  type UISource,
} from "./host-api/tool-host.js";
export type { IsolatedToolHost, IsolatedToolHostEvent } from "./isolation/isolated-tools.js";
/** Untrusted modules in a tool host: a child process under Node's permission model. */
export {
  DEFAULT_TOOL_HOST_MEMORY_MB,
  type IsolationOptions,
} from "./isolation/isolation-options.js";
/** Discovers, compiles, guards and validates tool modules; never throws for a module's fault. */
export { loadCustomTools, type PrestartedToolHost, prestartToolHost } from "./load/load-custom-tools.js";
/** `onSession` failures as `W_ON_SESSION_FAILED` warnings (the CLI's list, validate and call). */
export {
  type CheckSessionHooksOptions,
  checkSessionHooks,
  ON_SESSION_FAILED_WARNING,
  onSessionFailedDiagnostic,
  reportSessionHookFailures,
} from "./load/session-hooks.js";
export type { LoadChanges, LoadCustomToolsResult, LoadedCustomTool } from "./load/types.js";
/** Which compiler turns tool sources into modules. */
export type { CompilerName } from "./options.js";
/** Options of a load, their defaults and environment variables. */
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
/** Loads tools, then reloads them into the same host and session whenever their files change. */
export {
  DEFAULT_RELOAD_LIMIT,
  DEFAULT_WATCH_DEBOUNCE_MS,
  type ToolsReload,
  type ToolWatcher,
  type WatchCustomToolsOptions,
  watchCustomTools,
} from "./watch/watch-custom-tools.js";
