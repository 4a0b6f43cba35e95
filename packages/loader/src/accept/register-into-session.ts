import { basename, dirname } from "node:path";
import {
  type CustomTool,
  DIAGNOSTIC_ERROR_CODES,
  type Diagnostic,
  type DiagnosticErrorCode,
  TooldockError,
} from "@tooldock/sdk";
import { createDiagnostic, describeError } from "../diagnostics.js";
import { isWithin } from "../discover/expand-path.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { LoadSession } from "../options.js";
import type { LoadChanges, LoadedCustomTool } from "./types.js";

/**
 * Which module registered each tool into each session, by tool name. Held by the loader
 * (never by the session), per session object, so a session that is gone takes its entry with it.
 */
const originsBySession = new WeakMap<LoadSession, Map<string, DiscoveredModule>>();

/** What a load hands over when its batch has ended. */
export interface BatchOutcome {
  /** Tools that passed every check, with their module, in load order. */
  accepted: ReadonlyArray<{ tool: CustomTool; module: DiscoveredModule }>;
  /** Every diagnostic of the batch so far. */
  diagnostics: readonly Diagnostic[];
  /** Modules caught late (an exit from a timer): their tools are withdrawn. */
  skipped: ReadonlySet<string>;
}

/** The tools a load registered and what it changed in the session. */
export interface Registration {
  tools: LoadedCustomTool[];
  refused: Diagnostic[];
  changes: LoadChanges;
}

/**
 * Registers a load's tools into `session` module by module, as each one is accepted
 * ({@link SessionRegistration.add}), so a host can offer them before the batch ends; then,
 * when the batch has ended ({@link SessionRegistration.finish}), withdraws the tools of
 * modules caught late and removes what no module provides any more. A load into a session
 * the loader already loaded tools into **replaces** the tools of the modules it covers (a
 * module under one of its `roots`, or one it found again): a name such a module provided
 * before is unregistered and registered anew (`replaced`), a name no module provides any
 * more is unregistered (`removed`), other names are `added`. A module that failed this time
 * (an error and no tool) keeps its previous tools, and so does a tool whose entry failed with
 * an error naming it. A name held by anything else (another load's module, a built-in, the
 * host) is still `E_NAME_CONFLICT`. Without `session`, every tool is `added`.
 */
export class SessionRegistration {
  readonly #session: LoadSession | undefined;
  readonly #origins: Map<string, DiscoveredModule>;
  /** The modules found so far (the discover stage's list; complete by `finish`). */
  readonly #found: readonly DiscoveredModule[];
  /** The real paths of `#found`, kept up to date as it grows (one lookup per tool). */
  readonly #foundPaths = new Set<string>();
  readonly #roots: readonly string[];
  readonly #tools: LoadedCustomTool[] = [];
  readonly #provided = new Set<string>();
  readonly #changes: LoadChanges = { added: [], removed: [], replaced: [] };

  constructor(
    session: LoadSession | undefined,
    found: readonly DiscoveredModule[],
    roots: readonly string[],
  ) {
    this.#session = session;
    this.#found = found;
    this.#roots = roots;
    this.#origins = (session && originsBySession.get(session)) ?? new Map();
    if (session !== undefined) originsBySession.set(session, this.#origins);
  }

  /**
   * Registers the accepted tools of one module now. Returns the tools the session took (all
   * of them without a session) and a diagnostic for each one it refused.
   */
  add(module: DiscoveredModule, accepted: readonly CustomTool[]): Registration {
    const tools: LoadedCustomTool[] = [];
    const refused: Diagnostic[] = [];
    const session = this.#session;
    for (const tool of accepted) {
      const name = tool.name;
      let replacing = false;
      if (session !== undefined) {
        const previous = this.#origins.get(name);
        replacing = previous !== undefined && this.#covers(previous, name) && unregister(session, name);
        const problem = register(session, tool, module);
        if (problem !== undefined) {
          refused.push(problem);
          if (replacing) this.#origins.delete(name); // its old version is gone; the diagnostic says why
          continue;
        }
        this.#origins.set(name, { path: module.path, resolvedPath: module.resolvedPath });
        this.#provided.add(name);
      }
      tools.push({ tool, path: module.path, resolvedPath: module.resolvedPath });
      (replacing ? this.#changes.replaced : this.#changes.added).push(name);
    }
    this.#tools.push(...tools);
    return { tools, refused, changes: this.#changes };
  }

  /**
   * Ends the load: withdraws the tools of `batch.skipped` modules (unregistered; a name one of
   * them had replaced is `removed`, its old version is gone too), then unregisters the names
   * the covered modules no longer provide.
   */
  finish(batch: BatchOutcome): Registration {
    const session = this.#session;
    const changes = this.#changes;
    const withdrawn = this.#tools.filter((tool) => batch.skipped.has(tool.resolvedPath));
    for (const { tool, path } of withdrawn) {
      const name = tool.name;
      if (session !== undefined) {
        if (stillHolds(session, name, path)) unregister(session, name); // else the host took the name
        this.#origins.delete(name);
        this.#provided.delete(name);
      }
      if (changes.replaced.includes(name)) changes.removed.push(name);
      changes.added = changes.added.filter((added) => added !== name);
      changes.replaced = changes.replaced.filter((replaced) => replaced !== name);
    }
    const tools = this.#tools.filter((tool) => !batch.skipped.has(tool.resolvedPath));
    if (session === undefined) return { tools, refused: [], changes };
    const found = this.#foundSet();
    const keeps = keptByFailure(batch);
    const unread = inUnreadPackage(batch);
    for (const [name, origin] of [...this.#origins]) {
      if (this.#provided.has(name)) continue;
      if (!stillHolds(session, name, origin.path)) {
        this.#origins.delete(name); // the host unregistered it (and maybe registered its own): not ours now
        continue;
      }
      if (!this.#covers(origin, name)) continue;
      if (found.has(origin.resolvedPath) ? keeps(origin, name) : unread(origin)) continue;
      this.#origins.delete(name);
      if (unregister(session, name)) changes.removed.push(name);
    }
    return { tools, refused: [], changes };
  }

  #foundSet(): ReadonlySet<string> {
    for (let index = this.#foundPaths.size; index < this.#found.length; index++)
      this.#foundPaths.add((this.#found[index] as DiscoveredModule).resolvedPath);
    return this.#foundPaths;
  }

  /** Still ours: covered by this load, and (when the session can say) still the tool we registered. */
  #covers(origin: DiscoveredModule, name: string): boolean {
    const session = this.#session as LoadSession;
    const covered =
      this.#foundSet().has(origin.resolvedPath) || this.#roots.some((root) => isWithin(origin.path, root));
    return covered && stillHolds(session, name, origin.path);
  }
}

/**
 * Whether a module found again keeps a previous tool: when the module failed as a whole
 * this time (an error diagnostic, no tool accepted), or an error names that very tool.
 */
function keptByFailure(batch: BatchOutcome): (origin: DiscoveredModule, name: string) => boolean {
  const withTools = new Set(batch.accepted.map(({ module }) => module.resolvedPath));
  const failed = new Set<string>();
  const failedTools = new Set<string>();
  for (const diagnostic of batch.diagnostics) {
    if (diagnostic.severity !== "error") continue;
    const resolvedPath = diagnostic.resolvedPath ?? diagnostic.path;
    failed.add(resolvedPath);
    if (diagnostic.toolName !== undefined) failedTools.add(`${resolvedPath}\0${diagnostic.toolName}`);
  }
  return (origin, name) =>
    (failed.has(origin.resolvedPath) && !withTools.has(origin.resolvedPath)) ||
    failedTools.has(`${origin.resolvedPath}\0${name}`);
}

/**
 * Whether a module not found again lies in a package whose `package.json` failed this time (an
 * error about it: not JSON, a tool list of the wrong type): what the package holds is unknown,
 * not gone, as when an editor saves the manifest halfway. Its tools stay until it is read.
 */
function inUnreadPackage(batch: BatchOutcome): (origin: DiscoveredModule) => boolean {
  const packages = batch.diagnostics
    .filter(({ severity, path }) => severity === "error" && basename(path) === "package.json")
    .map(({ path }) => dirname(path));
  return (origin) =>
    packages.some((folder) => isWithin(origin.path, folder) || isWithin(origin.resolvedPath, folder));
}

/** Whether `session` still holds `name` from the module at `path` (yes, when it cannot say). */
function stillHolds(session: LoadSession, name: string, path: string): boolean {
  return typeof session.originOf !== "function" || session.originOf(name) === path;
}

/** Unregisters through the session when it can; a session without `unregister` keeps the tool. */
function unregister(session: LoadSession, name: string): boolean {
  if (typeof session.unregister !== "function") return false;
  try {
    return session.unregister(name);
  } catch {
    return false; // a name the session will not let go (its `resolve`): the conflict says so
  }
}

/**
 * Registers a tool into the session. The session re-checks the tool; a refusal becomes a
 * diagnostic with the session's own code (a name it already holds is `E_NAME_CONFLICT`).
 */
function register(session: LoadSession, tool: CustomTool, module: DiscoveredModule): Diagnostic | undefined {
  try {
    session.register(tool, module.path);
    return undefined;
  } catch (error) {
    const code =
      TooldockError.isInstance(error) && (DIAGNOSTIC_ERROR_CODES as readonly string[]).includes(error.code)
        ? (error.code as DiagnosticErrorCode)
        : "E_NAME_CONFLICT";
    return createDiagnostic(code, {
      message: `Tool "${tool.name}" from ${module.path} was refused by the session: ${describeError(error)}`,
      ...module,
      toolName: tool.name,
      hint:
        code === "E_NAME_CONFLICT"
          ? "Rename the tool; the session already holds a tool of that name."
          : "Fix the tool as the message says; the session checks every tool it registers.",
    });
  }
}
