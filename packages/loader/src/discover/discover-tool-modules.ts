import { basename, dirname, extname, join, resolve, sep } from "node:path";
import type { Diagnostic, DiagnosticErrorCode } from "@tooldock/sdk";
import { createDiagnostic, createWarning, type DiagnosticFields } from "../diagnostics.js";
import { expandPath, orElse } from "./expand-path.js";
import {
  type DiscoveryFileSystem,
  describeFileSystemError,
  type EntryStats,
  nodeDiscoveryFileSystem,
} from "./file-system.js";
import { readToolManifest } from "./read-manifest.js";
import { selfListingHint } from "./self-listing-hint.js";
import type { DiscoveredModule } from "./types.js";

/** Extensions of top-level files in a tool directory that are loaded as tool modules. */
const TOOL_MODULE_EXTENSIONS: readonly string[] = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];

/** File names a subfolder of a tool directory may use as its entry, in order of preference. */
const SUBFOLDER_INDEX_FILES: readonly string[] = ["index.ts", "index.mts", "index.js", "index.mjs"];

/** Options of {@link discoverToolModules}. */
export interface DiscoverToolModulesOptions {
  /** Files, directories or package directories; `~` expands, relative paths resolve against `cwd`. */
  paths: string[];
  /** Default: `process.cwd()`. */
  cwd?: string;
  /** @internal A seam for tests that simulate unreadable folders. */
  fileSystem?: DiscoveryFileSystem;
  /**
   * @internal Called with each module as soon as it is found, in discovery order (the load's
   * later stages start on it while discovery goes on; see `discover`); `inSubfolder` when it
   * is a subfolder's index file (not a file of a scanned folder itself, nor a listed entry).
   */
  onModule?: (module: DiscoveredModule, inSubfolder: boolean) => void;
  /**
   * @internal Called before each entry of a scanned folder; when it returns a promise,
   * discovery waits for it (the discover stage lets the first modules load between entries).
   */
  pace?: () => Promise<void> | undefined;
  /**
   * opencode's tool folders: a directory with a `.opencode/` folder holding `tool/` or
   * `tools/` contributes their `*.js` and `*.ts` files instead of its own; `.opencode/` (or
   * `~/.config/opencode/`) itself contributes the same, and its `tool/` or `tools/` folder only
   * those files. Default: `false`.
   */
  opencode?: boolean;
}

/** What {@link discoverToolModules} found. */
export interface DiscoverToolModulesResult {
  modules: DiscoveredModule[];
  diagnostics: Diagnostic[];
}

interface DiscoveryState extends Pick<DiscoverToolModulesOptions, "onModule" | "pace"> {
  fileSystem: DiscoveryFileSystem;
  modules: DiscoveredModule[];
  diagnostics: Diagnostic[];
  seen: Set<string>;
  manifestsInProgress: Set<string>;
  opencode: boolean;
}

/**
 * Finds tool modules (docs/contract.md §5). A file is loaded as given; a directory with an
 * `index.{ts,mts,js,mjs}` is one tool folder (that index, nothing else); another directory
 * contributes its top-level `*.ts *.mts *.cts *.js *.mjs *.cjs` (not `*.d.ts`, tests or hidden
 * files) and each subfolder's `index.{ts,mts,js,mjs}`; a directory whose `package.json` has
 * `"tooldock": { "tools": [...] }` (or an `omp` / `pi` field with `tools`) contributes exactly
 * those entries. Modules are de-duplicated by real path. Never throws: a path that cannot be
 * scanned is an `E_DISCOVERY` diagnostic, a `.md` / `.json` file an `E_NOT_EXECUTABLE` one.
 *
 * @example
 * ```ts
 * const { modules, diagnostics } = await discoverToolModules({ paths: ["~/.tooldock/tools", "./tools"] });
 * ```
 */
export async function discoverToolModules(
  options: DiscoverToolModulesOptions,
): Promise<DiscoverToolModulesResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const state: DiscoveryState = {
    fileSystem: options.fileSystem ?? nodeDiscoveryFileSystem,
    modules: [],
    diagnostics: [],
    seen: new Set(),
    manifestsInProgress: new Set(),
    onModule: options.onModule,
    pace: options.pace,
    opencode: options.opencode === true,
  };
  for (const given of options.paths) {
    await visitPath(state, expandPath(given, cwd), given);
  }
  const unique = new Map(
    state.diagnostics.map((diagnostic) => [
      `${diagnostic.code}\0${diagnostic.path}\0${diagnostic.message}`,
      diagnostic,
    ]),
  );
  return { modules: state.modules, diagnostics: [...unique.values()] };
}

type Listing = ReturnType<DiscoveryFileSystem["readdir"]>;

async function visitPath(state: DiscoveryState, path: string, given: string): Promise<void> {
  // A path without a module extension is most likely a folder: its listing is asked for
  // together with its stat (one file-system round trip less before the first module is
  // found). Used only if the stat says folder; otherwise its failure is expected and dropped.
  let listing: Listing | undefined;
  if (!TOOL_MODULE_EXTENSIONS.includes(extname(path))) {
    listing = state.fileSystem.readdir(path);
    listing.catch(() => {});
  }
  const stats = await statOrReport(state, path, given);
  if (stats === undefined) return;
  if (stats.isDirectory()) await visitDirectory(state, path, listing);
  else if (!stats.isFile()) reportNotRegular(state, path);
  else visitExplicitFile(state, path);
}

function visitExplicitFile(state: DiscoveryState, path: string): void {
  // A metadata file (`.md`, `.json`) is never executed.
  const metadata = [".md", ".json"].includes(extname(path).toLowerCase());
  if (metadata || !TOOL_MODULE_EXTENSIONS.includes(extname(path))) {
    reportError(state, "E_NOT_EXECUTABLE", {
      message: `${path} is not a tool module: ${metadata ? "metadata files (.md, .json) are never executed" : `"${extname(path) || "no extension"}" is not a module extension`}.`,
      path,
      hint: `Point Tooldock at a ${TOOL_MODULE_EXTENSIONS.join(" ")} file, or at the directory that holds it.`,
    });
    return;
  }
  addModule(state, path);
}

async function visitDirectory(state: DiscoveryState, directory: string, listing?: Listing): Promise<void> {
  if (mayHaveManifest(state, directory) && (await visitManifest(state, directory))) return;
  const opencodeFolders = state.opencode ? opencodeToolFolders(state, directory) : [];
  if (opencodeFolders.length > 0) {
    for (const folder of opencodeFolders) await visitOpencodeFolder(state, folder);
    return;
  }
  const entries = await readListing(state, directory, listing);
  if (entries === undefined) return;
  // The folder's real path, once: an entry that is no link is at <real folder>/<name>.
  const realDirectory =
    state.fileSystem.lstatIfExists === undefined
      ? undefined
      : orElse<string | undefined>(() => state.fileSystem.realpath(directory), undefined);
  // A folder with an index file is one tool folder, as pi loads `<tools>/<name>/index.ts`: its
  // index is the module, and its other files (helpers, a runner script that acts on
  // `process.argv`) are never imported.
  if (entries.some((entry) => SUBFOLDER_INDEX_FILES.includes(entry.name))) {
    const visiting = visitIndexFile(state, directory, realDirectory);
    if (visiting !== undefined) await visiting;
    return;
  }
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of sorted) {
    const pause = state.pace?.();
    if (pause !== undefined) await pause;
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue; // hidden, or packages
    const path = childPath(directory, entry.name);
    const stats = entry.isSymbolicLink() ? await statOrReport(state, path) : entry;
    if (stats === undefined) continue;
    const realPath =
      realDirectory === undefined || entry.isSymbolicLink()
        ? undefined
        : childPath(realDirectory, entry.name);
    if (stats.isDirectory()) {
      // Most subfolders are settled without waiting (see visitSubfolder): no promise then.
      const visiting = visitSubfolder(state, path, realPath);
      if (visiting !== undefined) await visiting;
    } else if (!isToolModuleFile(path)) continue;
    else if (stats.isFile()) addModule(state, path, realPath);
    else reportNotRegular(state, path);
  }
}

/** The folders opencode takes tools from, for `directory` (see `DiscoverToolModulesOptions.opencode`). */
function opencodeToolFolders(state: DiscoveryState, directory: string): string[] {
  const name = basename(directory);
  const parent = basename(dirname(directory));
  const isConfig = (folder: string, above: string) =>
    folder === ".opencode" || (folder === "opencode" && above === ".config");
  if ((name === "tool" || name === "tools") && isConfig(parent, basename(dirname(dirname(directory)))))
    return [directory];
  const config = isConfig(name, parent) ? directory : childPath(directory, ".opencode");
  return ["tool", "tools"]
    .map((folder) => childPath(config, folder))
    .filter((folder) => statOrUndefined(state, folder)?.isDirectory() === true);
}

/** `statIfExists`, a fault counted as nothing there (as {@link readToolManifest} does). */
function statOrUndefined(state: DiscoveryState, path: string): EntryStats | undefined {
  return orElse(() => state.fileSystem.statIfExists(path), undefined);
}

/** An opencode tool folder: its `*.js` and `*.ts` files, each one module (opencode's `{tool,tools}/*.{js,ts}`). */
async function visitOpencodeFolder(state: DiscoveryState, folder: string): Promise<void> {
  const entries = await readListing(state, folder);
  if (entries === undefined) return;
  const names = entries.map((entry) => entry.name).sort();
  for (const name of names) {
    const path = childPath(folder, name);
    if (![".js", ".ts"].includes(extname(name)) || !isToolModuleFile(path)) continue;
    if ((await statOrReport(state, path))?.isFile()) addModule(state, path);
  }
}

/** The entries of `folder` (its `listing` when asked for already); `undefined`, reported, when unreadable. */
async function readListing(
  state: DiscoveryState,
  folder: string,
  listing?: Listing,
): Promise<Awaited<Listing> | undefined> {
  try {
    return await (listing ?? state.fileSystem.readdir(folder));
  } catch (error) {
    reportUnreadable(state, folder, error);
    return undefined;
  }
}

/**
 * Visits a subfolder of a scanned directory: its manifest's entries, else its index file.
 * Returns a promise only when it has to wait (a `package.json` to read, a folder to stat
 * again); a subfolder with no `package.json` and an index file is settled synchronously.
 */
function visitSubfolder(
  state: DiscoveryState,
  directory: string,
  realDirectory?: string,
): Promise<void> | undefined {
  if (!mayHaveManifest(state, directory)) return visitIndexFile(state, directory, realDirectory);
  return visitManifest(state, directory).then((listed) =>
    listed ? undefined : visitIndexFile(state, directory, realDirectory),
  );
}

function visitIndexFile(
  state: DiscoveryState,
  directory: string,
  realDirectory: string | undefined,
): Promise<void> | undefined {
  for (const name of SUBFOLDER_INDEX_FILES) {
    const path = childPath(directory, name);
    // Without following a link: a plain file's real path is its folder's joined with its name.
    // A link, a folder, a device or a fault (`null`) is looked at again the usual way below.
    const plain =
      realDirectory === undefined ? null : orElse(() => state.fileSystem.lstatIfExists?.(path), null);
    if (plain === undefined) continue; // missing
    if (plain?.isFile()) {
      addModule(state, path, childPath(realDirectory as string, name), true);
      return undefined;
    }
    let stats: EntryStats | undefined;
    try {
      // Synchronous: a subfolder tries up to four names, each a stat (following symlinks).
      stats = state.fileSystem.statIfExists(path);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "ENOENT" || code === "ENOTDIR") continue; // ENOTDIR: the folder became a file; checked below.
      reportUnreadable(state, path, error); // a symlink loop, no permission, …
      return undefined;
    }
    if (stats === undefined || stats.isDirectory()) continue; // no such index file: try the next name
    if (stats.isFile()) addModule(state, path, undefined, true);
    else reportNotRegular(state, path);
    return undefined;
  }
  // No index file: if the folder itself is gone (removed while it was scanned), say so.
  return statOrReport(state, directory).then(() => {});
}

async function statOrReport(
  state: DiscoveryState,
  path: string,
  given = path,
): Promise<EntryStats | undefined> {
  try {
    return await state.fileSystem.stat(path);
  } catch (error) {
    reportUnreadable(state, path, error, given);
    return undefined;
  }
}

/**
 * False when `directory` has no `package.json` (the common case), asked synchronously: then
 * it has no tool manifest and no promise is made for one.
 */
function mayHaveManifest(state: DiscoveryState, directory: string): boolean {
  return statOrUndefined(state, childPath(directory, "package.json")) !== undefined;
}

/**
 * `join(directory, name)` for a normalized absolute folder (every folder discovery visits
 * is one: resolved, joined or real) and one entry name (a name from `readdir` or an index
 * file name: no separator, never `.` or `..`): the same string without `normalize`, which
 * was a fifth of a warm scan's time.
 */
function childPath(directory: string, name: string): string {
  return directory.endsWith(sep) ? directory + name : directory + sep + name;
}

/** A device, FIFO or socket named like a module: reading it could block or never end. */
function reportNotRegular(state: DiscoveryState, path: string): void {
  reportError(state, "E_DISCOVERY", {
    message: `Tool path ${path} is not a regular file (a device, FIFO or socket); it is never read.`,
    path,
    hint: "Point Tooldock at a module file; if this is a symbolic link, check where it leads.",
  });
}

/** Loads the entries a `package.json` lists; false when the directory has no tool manifest. */
async function visitManifest(state: DiscoveryState, directory: string): Promise<boolean> {
  const manifest = await readToolManifest(directory, state.fileSystem);
  if (manifest.kind === "none") return false;
  if (manifest.kind === "invalid") {
    reportError(state, "E_DISCOVERY", {
      message: `Cannot read the tool list of package ${directory}: ${manifest.reason}.`,
      path: join(directory, "package.json"),
      hint: manifest.hint,
    });
    return true;
  }
  const manifestPath = join(directory, "package.json");
  for (const field of manifest.ignored) {
    state.diagnostics.push(
      createWarning("W_MANIFEST_FIELD", {
        message: `"${field}" in ${manifestPath} lists no tools (Tooldock loads tools only): it was ignored.`,
        path: manifestPath,
        hint: `Tools are listed in "${manifest.field}.tools", "${manifest.field}.extensions", "${manifest.field}.features" or "${manifest.field}.install" (entries whose "dest" is under agent/tools/).`,
      }),
    );
  }
  if (manifest.entries.length === 0) {
    state.diagnostics.push(
      createWarning("W_NO_TOOLS", {
        message: `Package ${directory} lists no tools in its "${manifest.field}" field, so nothing of it was loaded.`,
        path: manifestPath,
        hint: `List the tool modules in "${manifest.field}": { "tools": ["./tools/my-tool.ts"] } (or "extensions", or "install" entries whose "dest" is under agent/tools/), or remove the package from the tool paths.`,
      }),
    );
    return true;
  }
  const key = realPathOr(state, directory);
  if (state.manifestsInProgress.has(key)) return true;
  state.manifestsInProgress.add(key);
  try {
    for (const { path: entry, key: listedIn } of manifest.entries) {
      const path = resolve(directory, entry);
      if (path === directory || key === realPathOr(state, path)) {
        reportError(state, "E_DISCOVERY", {
          message: `Package ${directory} lists itself ("${entry}") in "${listedIn}".`,
          path: manifestPath,
          hint: selfListingHint(manifest.field, listedIn),
        });
        continue;
      }
      await visitPath(state, path, entry);
    }
  } finally {
    state.manifestsInProgress.delete(key);
  }
  return true;
}

/** Adds a module found at `path`; `knownRealPath` when its real path is already known. */
function addModule(state: DiscoveryState, path: string, knownRealPath?: string, inSubfolder = false): void {
  let resolvedPath: string;
  try {
    resolvedPath = knownRealPath ?? state.fileSystem.realpath(path);
  } catch (error) {
    reportUnreadable(state, path, error);
    return;
  }
  if (state.seen.has(resolvedPath)) return;
  state.seen.add(resolvedPath);
  const module = { path, resolvedPath };
  state.modules.push(module);
  state.onModule?.(module, inSubfolder);
}

function realPathOr(state: DiscoveryState, path: string): string {
  return orElse(() => state.fileSystem.realpath(path), path);
}

function reportError(state: DiscoveryState, code: DiagnosticErrorCode, fields: DiagnosticFields): void {
  state.diagnostics.push(createDiagnostic(code, fields));
}

function reportUnreadable(state: DiscoveryState, path: string, error: unknown, given = path): void {
  const shown = given === path ? path : `${path} ("${given}")`;
  reportError(state, "E_DISCOVERY", {
    message: `Tool path ${shown} ${describeFileSystemError(error)}.`,
    path,
    hint: "Check the path and its permissions, or remove it from the tool paths.",
  });
}

/**
 * True when a file found in a tool directory is a tool module: a listed extension, and not a
 * declaration file, a test (`*.test.*`, `*.spec.*`) or hidden.
 */
function isToolModuleFile(path: string): boolean {
  const name = basename(path);
  if (name.startsWith(".")) return false; // hidden
  if (!TOOL_MODULE_EXTENSIONS.includes(extname(name))) return false;
  if (/\.d\.[cm]?ts$/.test(name)) return false;
  return !/\.(test|spec)\.[^.]+$/.test(name);
}
