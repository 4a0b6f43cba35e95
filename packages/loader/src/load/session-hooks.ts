import { Session, type SessionEvent } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { createWarning, describeError } from "../diagnostics.js";
import { DEFAULT_FACTORY_TIMEOUT_MS } from "../options.js";
import type { LoadedCustomTool } from "./types.js";

/** The code of the warning about a tool whose `onSession` threw, rejected or timed out. */
export const ON_SESSION_FAILED_WARNING = "W_ON_SESSION_FAILED";

/**
 * The {@link ON_SESSION_FAILED_WARNING} for a `tool-hook-failed` event of a tool loaded from
 * `module`. A warning: the session carried on and the tool still works; what the hook should
 * have set up (state rebuilt from the conversation) may be missing.
 */
export function onSessionFailedDiagnostic(
  event: Pick<Extract<SessionEvent, { type: "tool-hook-failed" }>, "toolName" | "event" | "error">,
  module: { path: string; resolvedPath: string },
): Diagnostic {
  const reason = event.event.reason;
  return createWarning(ON_SESSION_FAILED_WARNING, {
    message:
      `The onSession hook of tool "${event.toolName}" in ${module.path} failed on the "${reason}" event: ` +
      `${describeError(event.error)}. The session went on; the tool is loaded, without what the hook would have set up.`,
    ...module,
    toolName: event.toolName,
    hint: "Fix the error in onSession (it runs when a session starts and shuts down); read optional members of the event and context defensively (`event.entries ?? []`).",
  });
}

/**
 * Turns each `tool-hook-failed` event of `session` about one of `tools` into an
 * {@link ON_SESSION_FAILED_WARNING}, passed to `onDiagnostic` as it happens (a host that
 * starts the session itself: `tooldock call`). Returns the function that stops listening.
 */
export function reportSessionHookFailures(
  session: Pick<Session, "subscribe">,
  tools: readonly LoadedCustomTool[],
  onDiagnostic: (diagnostic: Diagnostic) => void,
): () => void {
  const modules = new Map(tools.map((loaded) => [loaded.tool.name, loaded]));
  return session.subscribe((event) => {
    if (event.type !== "tool-hook-failed") return;
    const module = modules.get(event.toolName);
    if (module !== undefined) onDiagnostic(onSessionFailedDiagnostic(event, module));
  });
}

/** Options of {@link checkSessionHooks}. */
export interface CheckSessionHooksOptions {
  cwd?: string;
  /** Longest each hook may take. Default: as long as a factory may take ({@link DEFAULT_FACTORY_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * Runs every tool's `onSession` once, as a host would (`start`, then `shutdown`), in a session
 * of its own, and returns an {@link ON_SESSION_FAILED_WARNING} for each hook that threw,
 * rejected or did not settle within `timeoutMs`. `tooldock list` and `validate` use it, so a
 * hook that fails is seen before a host runs the tool. Never throws.
 */
export async function checkSessionHooks(
  tools: readonly LoadedCustomTool[],
  options: CheckSessionHooksOptions = {},
): Promise<Diagnostic[]> {
  const withHooks = tools.filter((loaded) => loaded.tool.onSession !== undefined);
  if (withHooks.length === 0) return [];
  const session = new Session({
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    resolveTimeoutMs: options.timeoutMs ?? DEFAULT_FACTORY_TIMEOUT_MS,
  });
  const diagnostics: Diagnostic[] = [];
  const stop = reportSessionHookFailures(session, withHooks, (diagnostic) => diagnostics.push(diagnostic));
  try {
    for (const loaded of withHooks) {
      try {
        session.register(loaded.tool, loaded.path);
      } catch {
        // Not reached for loaded tools (checked, unique names); such a tool is skipped.
      }
    }
    await session.start();
    await session.dispose();
  } finally {
    stop();
  }
  return diagnostics;
}
