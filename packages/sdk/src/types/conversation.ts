/**
 * One entry of the conversation so far, as the host keeps it (pi writes
 * `{ type: "message", id, parentId, timestamp, message }` lines to its session file). Tooldock
 * passes the host's entries through unchanged; tools read `type` and what they know.
 */
export interface ConversationEntry {
  type: string;
  [field: string]: unknown;
}

/**
 * A read-only view of the conversation a tool runs in (pi's `ctx.sessionManager`). Each
 * method reads the host's state when called. Without a host that supplies a conversation
 * (the `tooldock` CLI, MCP) it is empty: no entries, no session file.
 */
export interface ToolSessionManager {
  /** Every entry of the conversation so far, oldest first (a copy). */
  getEntries(): ConversationEntry[];
  /** The entries of the current branch, oldest first; the same as `getEntries()` in Tooldock. */
  getBranch(): ConversationEntry[];
  /** The file the host keeps the conversation in, or `undefined` when it keeps none. */
  getSessionFile(): string | undefined;
  /** The id of the session running the tool. */
  getSessionId(): string;
  /** The session's working directory. */
  getCwd(): string;
}

/** The model the host is talking to, when it says (pi's `ctx.model`): at least its provider and id. */
export interface ToolModel {
  provider: string;
  id: string;
  [field: string]: unknown;
}
