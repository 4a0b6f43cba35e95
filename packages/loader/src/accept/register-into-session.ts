import { sep } from "node:path";
import {
  type CustomTool,
  DIAGNOSTIC_ERROR_CODES,
  type Diagnostic,
  type DiagnosticErrorCode,
  TooldockError,
} from "@tooldock/sdk";
import { createDiagnostic, describeError } from "../diagnostics.js";
import type { DiscoveredModule } from "../discover/types.js";
import type { LoadChanges, LoadedCustomTool } from "../load/types.js";
import type { LoadSession } from "../options.js";

/** The module a loaded tool came from, as the loader registered it into a session. */
interface ToolOrigin {
  path: string;
  resolvedPath: string;
}

/**
 * Which module registered each tool into each session, by tool name. Held by the loader
 * (never by the session), per session object, so a session that is gone takes its entry with it.
 */
const originsBySession = new WeakMap<LoadSession, Map<string, ToolOrigin>>();

/** What a batch hands over for registration, once it has ended. */
export interface BatchOutcome {
  /** Tools that passed every check, with their module, in load order. */
  accepted: ReadonlyArray<{ tool: CustomTool; module: DiscoveredModule }>;
  /** Every module discovery found. */
  modules: readonly DiscoveredModule[];
  /** The absolute tool locations the load was given (after `~` and `cwd`). */
  roots: readonly string[];
  /** Every diagnostic of the batch so far. */
  diagnostics: readonly Diagnostic[];
}

/** The tools a load registered and what it changed in the session. */
export interface Registration {
  tools: LoadedCustomTool[];
  refused: Diagnostic[];
  changes: LoadChanges;
}

/**
 * Registers a batch's tools into `session`. A load into a session the loader already loaded
 * tools into **replaces** the tools of the modules it covers (a module under one of its
 * `roots`, or one it found again): a name such a module provided before is unregistered and
 * registered anew (`replaced`), a name no module provides any more is unregistered
 * (`removed`), other names are `added`. A module that failed this time (an error and no
 * tool) keeps its previous tools, and so does a tool whose entry failed with an error
 * naming it. A name held by anything else (another load's module, a built-in, the host) is
 * still `E_NAME_CONFLICT`. Without `session`, every tool is `added`.
 */
export function registerIntoSession(session: LoadSession | undefined, batch: BatchOutcome): Registration {
  const tools: LoadedCustomTool[] = [];
  const refused: Diagnostic[] = [];
  const changes: LoadChanges = { added: [], removed: [], replaced: [] };
  if (session === undefined) {
    for (const { tool, module } of batch.accepted) {
      tools.push(loaded(tool, module));
      changes.added.push(tool.name);
    }
    return { tools, refused, changes };
  }
  let origins = originsBySession.get(session);
  if (origins === undefined) {
    origins = new Map();
    originsBySession.set(session, origins);
  }
  const found = new Set(batch.modules.map((module) => module.resolvedPath));
  // Still ours: covered by this load, and (when the session can say) still the tool we registered.
  const covers = (origin: ToolOrigin, name: string) =>
    (found.has(origin.resolvedPath) || batch.roots.some((root) => isWithin(origin.path, root))) &&
    (typeof session.originOf !== "function" || session.originOf(name) === origin.path);
  const provided = new Set<string>();
  for (const { tool, module } of batch.accepted) {
    const name = tool.name;
    const previous = origins.get(name);
    const replacing = previous !== undefined && covers(previous, name) && unregister(session, name);
    const problem = register(session, tool, module);
    if (problem !== undefined) {
      refused.push(problem);
      if (replacing) origins.delete(name); // its old version is gone; the diagnostic says why
      continue;
    }
    origins.set(name, { path: module.path, resolvedPath: module.resolvedPath });
    provided.add(name);
    tools.push(loaded(tool, module));
    (replacing ? changes.replaced : changes.added).push(name);
  }
  const keeps = keptByFailure(batch);
  for (const [name, origin] of [...origins]) {
    if (provided.has(name)) continue;
    if (typeof session.originOf === "function" && session.originOf(name) !== origin.path) {
      origins.delete(name); // the host unregistered it (and maybe registered its own): not ours now
      continue;
    }
    if (!covers(origin, name)) continue;
    if (found.has(origin.resolvedPath) && keeps(origin, name)) continue;
    origins.delete(name);
    if (unregister(session, name)) changes.removed.push(name);
  }
  return { tools, refused, changes };
}

/**
 * Whether a module found again keeps a previous tool: when the module failed as a whole
 * this time (an error diagnostic, no tool accepted), or an error names that very tool.
 */
function keptByFailure(batch: BatchOutcome): (origin: ToolOrigin, name: string) => boolean {
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

function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function loaded(tool: CustomTool, module: DiscoveredModule): LoadedCustomTool {
  return { tool, path: module.path, resolvedPath: module.resolvedPath };
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
      path: module.path,
      resolvedPath: module.resolvedPath,
      toolName: tool.name,
      hint:
        code === "E_NAME_CONFLICT"
          ? "Rename the tool; the session already holds a tool of that name."
          : "Fix the tool as the message says; the session checks every tool it registers.",
    });
  }
}
