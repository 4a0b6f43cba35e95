import { jsonText } from "./json-copy.js";
import type { CallContext } from "./protocol.js";

/** How many sessions' conversations the host lets a tool host keep. */
export const MAX_CONVERSATIONS = 16;
/**
 * How much of them, in characters of JSON, all sessions together (their parsed entries take
 * two to three times that of the tool host's heap, 512 MB by default). A conversation larger
 * than this alone is kept alone.
 */
export const MAX_CONVERSATION_CHARACTERS = 16 * 1024 * 1024;

/** A session's conversation as the tool host received it (host side: the host's entry objects). */
export interface Conversation {
  entries: readonly unknown[];
  /** The same array as `entries` when the branch holds the same entries (a Session's does). */
  branch: readonly unknown[];
}

/** What the host sent a tool host of one session, and about how many characters of JSON that was. */
interface Sent extends Conversation {
  characters: number;
}

/** What the host sent one tool host, by session (see {@link sendConversation}). */
export type SentConversations = Map<string, Sent>;

/**
 * Host side: fills in the conversation of a message's `context` for the tool host of `sent`,
 * sending only the entries it has not seen. Entries are taken as immutable: the longest start
 * of the list that holds the very objects sent for this session last time is named by its
 * length (`entriesFrom`), and only the rest is copied and sent (200 entries of 2 KB made each
 * isolated call ~20 ms when all were sent every time). A host that edits an entry in place must
 * replace it with a new object for the tool host to see the change. The tool host keeps what
 * the host tells it to: past {@link MAX_CONVERSATIONS} or {@link MAX_CONVERSATION_CHARACTERS},
 * the least recent sessions are named in `forget`, and their next message sends everything.
 * Returns what records the message as sent: call it once the message is written (one that
 * could not be written leaves the tool host where it was).
 */
export function sendConversation(
  sent: SentConversations,
  context: CallContext,
  entries: readonly unknown[] | undefined,
  branch: readonly unknown[] | undefined,
): () => void {
  const { sessionId } = context;
  const before = sent.get(sessionId);
  const all = Array.isArray(entries) ? entries : [];
  const path = !Array.isArray(branch) || sameItems(branch, all) ? all : branch;
  const from = sharedStart(before?.entries, all);
  const added = jsonText(all.slice(from));
  // An entry JSON cannot carry: no conversation at all, as before this was incremental.
  let record: Sent = { entries: [], branch: [], characters: 0 };
  if (added !== undefined) {
    if (all.length > from) context.entries = JSON.parse(added) as unknown[];
    if (from > 0) context.entriesFrom = from;
    record = { entries: all, branch: all, characters: kept(before, from) + added.length };
    if (path !== all) {
      const branchFrom = sharedStart(before?.branch, path);
      const branchAdded = jsonText(path.slice(branchFrom));
      if (branchAdded !== undefined) {
        context.branch = JSON.parse(branchAdded) as unknown[];
        if (branchFrom > 0) context.branchFrom = branchFrom;
        record.branch = path;
        record.characters += kept(before, branchFrom) + branchAdded.length;
      }
    }
  }
  const forget = leastRecent(sent, sessionId, record.characters);
  if (forget.length > 0) context.forget = forget;
  return () => {
    for (const id of forget) sent.delete(id);
    sent.delete(sessionId);
    sent.set(sessionId, record);
  };
}

/**
 * Tool host side: the message's `context` with its whole conversation, from what it carries
 * and what this session's last message carried (see {@link sendConversation}).
 */
export function receiveConversation(received: Map<string, Conversation>, context: CallContext): CallContext {
  for (const id of context.forget ?? []) received.delete(id);
  const before = received.get(context.sessionId);
  const entries = joined(before?.entries, context.entriesFrom, context.entries ?? []);
  const branch =
    context.branch === undefined ? entries : joined(before?.branch, context.branchFrom, context.branch);
  received.delete(context.sessionId);
  received.set(context.sessionId, { entries, branch });
  return { ...context, entries, branch: branch === entries ? undefined : branch };
}

function joined(
  before: readonly unknown[] | undefined,
  from: number | undefined,
  added: unknown[],
): unknown[] {
  return from === undefined ? added : (before ?? []).slice(0, from).concat(added);
}

/** About how many characters the first `from` items of the session's last list took. */
function kept(before: Sent | undefined, from: number): number {
  if (before === undefined || from === 0) return 0;
  const share = before.entries.length + (before.branch === before.entries ? 0 : before.branch.length);
  return share === 0 ? 0 : Math.round((before.characters * from) / share);
}

/** The sessions to forget, least recent first, so that `sessionId`'s `characters` fit. */
function leastRecent(sent: SentConversations, sessionId: string, characters: number): string[] {
  let count = sent.has(sessionId) ? sent.size : sent.size + 1;
  let total = characters;
  for (const [id, record] of sent) if (id !== sessionId) total += record.characters;
  const forget: string[] = [];
  for (const [id, record] of sent) {
    if (count <= MAX_CONVERSATIONS && total <= MAX_CONVERSATION_CHARACTERS) break;
    if (id === sessionId) continue;
    forget.push(id);
    count -= 1;
    total -= record.characters;
  }
  return forget;
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
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
