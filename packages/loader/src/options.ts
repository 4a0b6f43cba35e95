import { resolve } from "node:path";
import type { CustomTool, Diagnostic } from "@tooldock/sdk";
import { resolveCacheDir } from "./compile/cache-dir.js";
import { createWarning } from "./diagnostics.js";
import type { DiscoveryFileSystem } from "./discover/file-system.js";
import type { DiscoveredModule } from "./discover/types.js";
import { ToolHost, type ToolHostSession } from "./host-api/tool-host.js";
import type { IsolationOptions } from "./isolation/isolation-options.js";
import type { LoadedCustomTool } from "./load/types.js";

/** Which compiler turns tool sources into modules. */
export type CompilerName = "esbuild" | "jiti";

/** Environment variable that picks the compiler when the option is not given. */
export const COMPILER_ENV = "TOOLDOCK_COMPILER";
/** Environment variable for the factory timeout (milliseconds) when the option is not given. */
export const FACTORY_TIMEOUT_ENV = "TOOLDOCK_FACTORY_TIMEOUT_MS";
/** Default of `factoryTimeoutMs`. */
export const DEFAULT_FACTORY_TIMEOUT_MS = 10_000;
/** Environment variable that turns source-mapped stack traces off (`0` or `false`) when the option is not given. */
export const SOURCE_MAPS_ENV = "TOOLDOCK_SOURCE_MAPS";

/** What `loadCustomTools` needs of a session to register tools into it. A runtime `Session` fits. */
export interface LoadSession extends ToolHostSession {
  register(tool: CustomTool, origin?: string): void;
  /**
   * Removes a tool; returns whether there was one. With it, a load into the same session
   * again replaces the tools of the modules it loaded before; without it, each such name is
   * an `E_NAME_CONFLICT`.
   */
  unregister?(name: string): boolean;
  /**
   * The origin a tool was registered with. With it, a reload replaces a name only while the
   * session still holds the tool the loader registered (origin: its module path), never a
   * tool the host registered under that name since.
   */
  originOf?(name: string): string | undefined;
}

/** Reported after each module is loaded (or failed). */
export interface LoadProgress {
  /** Modules done so far, this one included. */
  completed: number;
  /**
   * Modules found so far: discovery goes on while the first modules load, so this grows
   * until discovery ends (a folder's own files are all found before its first module loads).
   */
  total: number;
  module: DiscoveredModule;
  /**
   * The tools of this module that passed every check, ready to offer before the batch ends;
   * with `session`, already registered in it (a tool the session refused is not here). The
   * result's `tools` are final: a module caught later (a `process.exit` from its timer) has
   * its tools withdrawn (unregistered) when the batch ends.
   */
  tools: readonly LoadedCustomTool[];
  /** Diagnostics this module produced. */
  diagnostics: number;
}

/** Options of `loadCustomTools`. Every option has a default; see the package README. */
export interface LoadCustomToolsOptions {
  /** Files, directories or package directories to load tools from. */
  paths: readonly string[];
  /** Base of relative paths and the `cwd` a default host gives tools. Default: the host's `cwd`, else `process.cwd()`. */
  cwd?: string;
  /** Owns the `pi` API handed to factories. Default: a new `ToolHost({ cwd })`. */
  host?: ToolHost;
  /** Registers the loaded tools into this session (origin: the module path) and makes it the host's active session. */
  session?: LoadSession;
  /** Names of the host's built-in tools; a module may not claim them (`resolve` is always reserved). Default: `[]`. */
  builtInToolNames?: string[];
  /** Default: `$TOOLDOCK_COMPILER`, else `"esbuild"` (falling back to jiti when esbuild cannot load). */
  compiler?: CompilerName;
  /**
   * Compile cache. Default: `$TOOLDOCK_CACHE_DIR`, else `<cwd>/node_modules/.cache/tooldock`
   * when `<cwd>/node_modules` exists, else the per-user `$XDG_CACHE_HOME/tooldock` (else
   * `~/.cache/tooldock`). Created with mode `0700`. It must be private: before anything is
   * read from it the loader checks that it and its subfolders are real folders owned by the
   * current user and not writable by group or others; otherwise that load uses no cache and
   * warns once (`W_CACHE_UNSAFE`).
   */
  cacheDir?: string;
  /** Deadline for each factory to settle. Default: `$TOOLDOCK_FACTORY_TIMEOUT_MS`, else 10000. */
  factoryTimeoutMs?: number;
  /**
   * Turn on Node's source map support (`process.setSourceMapsEnabled(true)`, process-wide) so
   * stack traces from tools name their `.ts` file and line. It makes every later import in the
   * process slower (Node reads each module's map); pass `false` when the host decides itself.
   * Default: `$TOOLDOCK_SOURCE_MAPS` (`0` or `false` turn it off), else `true`.
   */
  sourceMaps?: boolean;
  /**
   * Called after each module. If it throws, it is not called again; the load still runs to
   * its end (every module loaded, late-caught ones withdrawn from `session`), then rejects
   * with that error.
   */
  onProgress?: (progress: LoadProgress) => void;
  /**
   * Where the modules run. `"none"` (the default): in this process, trusted like a
   * dependency of the host. `"process"` (or an {@link IsolationOptions} object for its
   * settings): in a tool host, a child Node process under Node's permission model that reads
   * only the module folders, the working folder and its cache, writes only the working
   * folder, starts no process and has a heap cap; the session gets a proxy for each tool, and
   * the result's `isolated` owns the process (close it when done). See docs/reliability.md
   * for what each mode promises.
   */
  isolation?: "none" | "process" | IsolationOptions;
  /**
   * Load opencode custom tools too: a module that exports `tool({ description, args, execute })`
   * definitions (from `@opencode-ai/plugin`) gives one tool per export, named as opencode
   * names them (`<file>` for the default export, `<file>_<export>` for the others), and a
   * directory with a `.opencode/` folder contributes `.opencode/tool/*` and `.opencode/tools/*`
   * (`*.js`, `*.ts`) instead of its own files. Default: `false` (such a module is
   * `E_NO_FACTORY`, with a hint that names this option).
   */
  opencode?: boolean;
  /** @internal A seam for tests that simulate file-system faults during discovery. */
  fileSystem?: DiscoveryFileSystem;
  /**
   * @internal The packs a host built for its tool host (see `prebuildPacks`): evaluated from
   * there, read only; a module they hold no current pack for compiles with jiti.
   */
  packsDir?: string;
}

/**
 * Options normalised once; every later step reads this. Its `warnings` (`W_ENV_VALUE`) are
 * reported with the load's diagnostics.
 */
export interface LoadContext
  extends LoadEnvironment,
    Pick<LoadCustomToolsOptions, "session" | "onProgress" | "fileSystem" | "packsDir"> {
  paths: string[];
  cwd: string;
  host: ToolHost;
  reservedNames: ReadonlySet<string>;
  cacheDir: string;
  opencode: boolean;
}

/** Applies defaults and environment variables to the options of a load. */
export function normalizeLoadOptions(
  options: LoadCustomToolsOptions,
  env: NodeJS.ProcessEnv = process.env,
): LoadContext {
  const cwd = resolve(options.cwd ?? options.host?.cwd ?? process.cwd());
  return {
    ...readLoadEnvironment(env, cwd, options),
    paths: [...options.paths],
    cwd,
    host: options.host ?? new ToolHost({ cwd }),
    session: options.session,
    reservedNames: new Set(options.builtInToolNames ?? []),
    cacheDir: resolveCacheDir(cwd, options.cacheDir, env),
    onProgress: options.onProgress,
    fileSystem: options.fileSystem,
    packsDir: options.packsDir,
    opencode: options.opencode === true,
  };
}

/** What a load takes from the environment (see {@link readLoadEnvironment}). */
export interface LoadEnvironment {
  compiler: CompilerName;
  factoryTimeoutMs: number;
  sourceMaps: boolean;
  /** `W_ENV_VALUE` for each variable whose value could not be used (its default was). */
  warnings: Diagnostic[];
}

/**
 * The compiler, factory deadline and source maps a load takes from `env` (`TOOLDOCK_COMPILER`,
 * `TOOLDOCK_FACTORY_TIMEOUT_MS`, `TOOLDOCK_SOURCE_MAPS`), each unless `given`, and a
 * `W_ENV_VALUE` warning (`path`: `cwd`) for each value it cannot use, naming the default used
 * instead. For a host or tool that runs several loads and reports the environment once: pass
 * the values on to each load, which then reads nothing.
 */
export function readLoadEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  given: Pick<LoadCustomToolsOptions, "compiler" | "factoryTimeoutMs" | "sourceMaps"> = {},
): LoadEnvironment {
  const warnings: Diagnostic[] = [];
  /** `env[name]` as `read` means it; unset or empty, `fallback`; unusable, `fallback` and a warning. */
  const fromEnv = <T>(
    name: string,
    read: (value: string) => T | undefined,
    expected: string,
    fallback: T,
  ): T => {
    const value = env[name]?.trim();
    if (value === undefined || value === "") return fallback;
    const meant = read(value);
    if (meant !== undefined) return meant;
    warnings.push(
      createWarning("W_ENV_VALUE", {
        message: `${name}=${JSON.stringify(env[name])} is not ${expected}; the load used ${JSON.stringify(fallback)}.`,
        path: cwd,
        hint: `Set ${name} to ${expected}, or unset it.`,
      }),
    );
    return fallback;
  };
  const compiler = given.compiler ?? fromEnv(COMPILER_ENV, compilerName, '"esbuild" or "jiti"', "esbuild");
  const factoryTimeoutMs =
    given.factoryTimeoutMs ??
    fromEnv(
      FACTORY_TIMEOUT_ENV,
      positiveNumber,
      "a number of milliseconds above 0",
      DEFAULT_FACTORY_TIMEOUT_MS,
    );
  const sourceMaps = given.sourceMaps ?? fromEnv(SOURCE_MAPS_ENV, onOrOff, "0, false, 1 or true", true);
  return { compiler, factoryTimeoutMs, sourceMaps, warnings };
}

function compilerName(value: string): CompilerName | undefined {
  return (["esbuild", "jiti"] as const).find((name) => name === value.toLowerCase());
}

function positiveNumber(value: string): number | undefined {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** `0` and `false` (any case) turn a boolean environment variable off, `1` and `true` on. */
function onOrOff(value: string): boolean | undefined {
  const normalized = value.toLowerCase();
  if (normalized === "0" || normalized === "false") return false;
  return normalized === "1" || normalized === "true" ? true : undefined;
}
