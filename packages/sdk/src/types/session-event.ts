import type { ConversationEntry } from "./conversation.js";

/**
 * What pi and its forks sent with each session event, which a `Session` sends too. Optional
 * because other hosts may not send them.
 */
export interface CustomToolSessionDetails {
  /** The conversation so far (a copy); empty unless the host supplies it. */
  entries?: readonly ConversationEntry[];
  /** The file the host keeps the conversation in, or `null` when it keeps none. */
  sessionFile?: string | null;
  /** The session file before a switch, or `null` (always `null` in Tooldock: it never switches). */
  previousSessionFile?: string | null;
}

/** A session lifecycle event delivered to a tool's `onSession`. */
export type CustomToolSessionEvent =
  | ({ reason: "start" } & CustomToolSessionDetails)
  | ({ reason: "shutdown" } & CustomToolSessionDetails);
