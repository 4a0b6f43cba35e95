import { jsonCopy } from "./json-copy.js";
import type { CallContext } from "./protocol.js";

/**
 * How many sessions' conversations each side remembers. The host and the tool host apply the
 * same rule to the same messages in the same order (see {@link remember}), so a session the
 * host has forgotten is one the tool host has forgotten too: its next call sends everything.
 */
export const MAX_CONVERSATIONS = 64;

/** A session's conversation as last sent (host: the host's entry objects) or received (tool host). */
export interface Conversation {
  entries: readonly unknown[];
  /** The same array as `entries` when the branch holds the same entries (a Session's does). */
  branch: readonly unknown[];
}

/**
 * Host side: fills in the conversation of a call's (or session event's) `context` for the
 * tool host of `sent`, sending only the entries it has not seen. Entries are taken as
 * immutable: the longest start of the list that holds the very objects sent for this session
 * last time is named by its length (`entriesFrom`), and only the rest is copied and sent. A
 * long conversation then costs a call what it gained since the last one, not all of it (200
 * entries of 2 KB made each isolated call ~20 ms). A host that edits an entry in place must
 * replace it with a new object for the tool host to see the change. Returns what records the
 * conversation as sent: call it once the message is written (a message that could not be
 * written leaves the tool host where it was).
 */
export function sendConversation(
  sent: Map<string, Conversation>,
  context: CallContext,
  entries: readonly unknown[] | undefined,
  branch: readonly unknown[] | undefined,
): () => void {
  const before = sent.get(context.sessionId);
  const all = entries ?? [];
  const path = branch === undefined || sameItems(branch, all) ? all : branch;
  const from = sharedStart(before?.entries, all);
  const added = jsonCopy(all.slice(from)) as unknown[] | undefined;
  if (added === undefined) {
    // An entry JSON cannot carry: no conversation at all, as before this was incremental.
    return () => remember(sent, context.sessionId, { entries: [], branch: [] });
  }
  if (entries !== undefined) context.entries = added;
  if (from > 0) context.entriesFrom = from;
  let sentPath: readonly unknown[] = all;
  if (path !== all) {
    const branchFrom = sharedStart(before?.branch, path);
    const branchAdded = jsonCopy(path.slice(branchFrom)) as unknown[] | undefined;
    if (branchAdded !== undefined) {
      context.branch = branchAdded;
      if (branchFrom > 0) context.branchFrom = branchFrom;
      sentPath = path;
    }
  }
  return () => remember(sent, context.sessionId, { entries: all, branch: sentPath });
}

/**
 * Tool host side: the call's `context` with its whole conversation, from what it carries and
 * what this session's last message carried (see {@link sendConversation}).
 */
export function receiveConversation(received: Map<string, Conversation>, context: CallContext): CallContext {
  const before = received.get(context.sessionId);
  const entries = joined(before?.entries, context.entriesFrom, context.entries ?? []);
  const branch =
    context.branch === undefined ? entries : joined(before?.branch, context.branchFrom, context.branch);
  remember(received, context.sessionId, { entries, branch });
  return { ...context, entries, branch: branch === entries ? undefined : branch };
}

function joined(
  before: readonly unknown[] | undefined,
  from: number | undefined,
  added: unknown[],
): unknown[] {
  return from === undefined ? added : (before ?? []).slice(0, from).concat(added);
}

/** Records `conversation` as the session's latest, forgetting the least recent past the limit. */
function remember(map: Map<string, Conversation>, sessionId: string, conversation: Conversation): void {
  map.delete(sessionId);
  map.set(sessionId, conversation);
  if (map.size > MAX_CONVERSATIONS) map.delete(map.keys().next().value as string);
}

/** How many items `now` starts with that are the very items of `before`, in order. */
function sharedStart(before: readonly unknown[] | undefined, now: readonly unknown[]): number {
  if (before === undefined) return 0;
  const most = Math.min(before.length, now.length);
  let at = 0;
  while (at < most && before[at] === now[at]) at += 1;
  return at;
}

/** Whether two arrays hold the same items (by identity), in the same order. */
export function sameItems(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
