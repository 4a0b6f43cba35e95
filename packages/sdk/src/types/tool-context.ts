/** What a tool sees of the session that runs it, on each call. */
export interface CustomToolContext {
  /** The id of the session running the tool. */
  sessionId: string;
  /** The session's working directory. */
  cwd: string;
  /** True while the session has at least one pending action. */
  hasPendingActions(): boolean;
  /** Aborts the current call: the `signal` passed to `execute` fires. */
  abort(): void;
}
