import type {
  ConversationEntry,
  CustomToolSessionDetails,
  ToolModel,
  ToolSessionManager,
} from "@tooldock/sdk";

/**
 * What a host tells its tools about the conversation ({@link SessionOptions.conversation}):
 * each function is called when a tool asks (`ctx.sessionManager.getEntries()`, `ctx.isIdle()`,
 * `ctx.hasQueuedMessages()`, and once per `onSession` event), so it always answers with the
 * host's current state; `model` is read as each call starts (`ctx.model`, as pi's contexts
 * carried it). Every member is optional.
 *
 * @example
 * ```ts
 * const session = new Session({
 *   conversation: {
 *     entries: () => transcript, // the host's own entries, oldest first
 *     sessionFile: () => "/home/me/.myagent/sessions/today.jsonl",
 *     model: () => ({ provider: "anthropic", id: "claude-sonnet-4-5" }),
 *     hasQueuedMessages: () => inbox.length > 0,
 *   },
 * });
 * ```
 */
export interface ConversationSource {
  /** The entries so far, oldest first. Default: none. */
  entries?(): readonly ConversationEntry[];
  /** The file the host keeps the conversation in. Default: none (`undefined`). */
  sessionFile?(): string | undefined;
  /** The model the host talks to. Default: `undefined`. */
  model?(): ToolModel | undefined;
  /** Whether the user queued messages the agent has not read yet. Default: `false`. */
  hasQueuedMessages?(): boolean;
  /**
   * Whether the agent is idle. Default: `true` exactly while no tool call of the session is
   * running (so `false` inside `execute`).
   */
  isIdle?(): boolean;
}

/** The conversation as the session's contexts read it: every member filled in. */
export interface ConversationView {
  entries(): ConversationEntry[];
  sessionFile(): string | undefined;
  model(): ToolModel | undefined;
  hasQueuedMessages(): boolean;
  isIdle(): boolean;
}

/** Fills in the defaults of a host's {@link ConversationSource}; `running` counts the session's calls. */
export function conversationView(
  source: ConversationSource | undefined,
  running: () => number,
): ConversationView {
  const host = source ?? {};
  return {
    entries: () => [...(host.entries?.() ?? [])],
    sessionFile: () => host.sessionFile?.() ?? undefined,
    model: () => host.model?.() ?? undefined,
    hasQueuedMessages: () => host.hasQueuedMessages?.() === true,
    isIdle: () => (host.isIdle === undefined ? running() === 0 : host.isIdle() === true),
  };
}

/** The read-only `ctx.sessionManager` of a session. */
export function createSessionManager(
  view: ConversationView,
  session: { sessionId: string; cwd: string },
): ToolSessionManager {
  return Object.freeze({
    getEntries: () => view.entries(),
    getBranch: () => view.entries(),
    getSessionFile: () => view.sessionFile(),
    getSessionId: () => session.sessionId,
    getCwd: () => session.cwd,
  });
}

/** What each `onSession` event carries besides its reason, as pi sent it. */
export function sessionEventDetails(view: ConversationView): Required<CustomToolSessionDetails> {
  return { entries: view.entries(), sessionFile: view.sessionFile() ?? null, previousSessionFile: null };
}
