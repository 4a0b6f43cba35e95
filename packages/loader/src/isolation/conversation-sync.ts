import { jsonText } from "./json-copy.js";
import type { CallContext } from "./protocol.js";

/** How many sessions' conversations the host lets a tool host keep. */
export const MAX_CONVERSATIONS = 16;
/**
 * How much of them, in characters of JSON, all sessions together (their parsed entries take
 * two to three times that of the tool host's heap, 512 MB by default). A conversation larger
 * than this alone is kept alone.
 */
const MAX_CONVERSATION_CHARACTERS = 16 * 1024 * 1024;

/** What a tool host may keep (see {@link sendConversation}). */
interface ConversationLimits {
  sessions: number;
  characters: number;
}

/** A session's conversation as the tool host received it (host side: the host's entry objects). */
export interface Conversation {
  entries: readonly unknown[];
  /** The same array as `entries` when the branch holds the same entries (a Session's does). */
  branch: readonly unknown[];
}

/** What the host sent a tool host of one list (entries or branch): its items and each one's JSON length. */
interface SentList {
  /** A copy of the host's list as sent (a host may hand out its own array and change it). */
  items: readonly unknown[];
  sizes: readonly number[];
}

/** What the host sent a tool host of one session, and how many characters of JSON it keeps. */
interface Sent {
  entries: SentList;
  /** The same object as `entries` when the branch holds the same entries (a Session's does). */
  branch: SentList;
  characters: number;
}

/** What the host sent one tool host, by session (see {@link sendConversation}). */
export type SentConversations = Map<string, Sent>;

const EMPTY: SentList = { items: [], sizes: [] };

/**
 * Host side: fills in the conversation of a message's `context` for the tool host of `sent`,
 * sending only the entries it has not seen. Entries are taken as immutable: the longest start
 * of the list that holds the very objects sent for this session last time is named by its
 * length (`entriesFrom`), and only the rest is copied and sent (200 entries of 2 KB made each
 * isolated call ~20 ms when all were sent every time). A host that edits an entry in place must
 * replace it with a new object for the tool host to see the change. The tool host keeps what
 * the host tells it to: past {@link MAX_CONVERSATIONS} or {@link MAX_CONVERSATION_CHARACTERS}
 * (each entry's JSON counted), the least recent sessions are named in `forget`, and their next
 * message sends everything. Returns what records the message as sent: call it once the message
 * is written (one that could not be written leaves the tool host where it was).
 */
export function sendConversation(
  sent: SentConversations,
  context: CallContext,
  entries: readonly unknown[] | undefined,
  branch: readonly unknown[] | undefined,
  limits: ConversationLimits = { sessions: MAX_CONVERSATIONS, characters: MAX_CONVERSATION_CHARACTERS },
): () => void {
  const { sessionId } = context;
  const before = sent.get(sessionId);
  const all = Array.isArray(entries) ? entries : [];
  // A Session's branch is its entries: sent once, not twice.
  const sameAsEntries =
    !Array.isArray(branch) || (branch.length === all.length && sharedStart(branch, all) === all.length);
  const path = sameAsEntries ? all : branch;
  let record: Sent = { entries: EMPTY, branch: EMPTY, characters: 0 };
  const sentEntries = delta(before?.entries, all);
  // An entry JSON cannot carry: no conversation at all, as before this was incremental.
  if (sentEntries !== undefined) {
    if (sentEntries.added.length > 0) context.entries = sentEntries.added;
    if (sentEntries.from > 0) context.entriesFrom = sentEntries.from;
    record = { entries: sentEntries.list, branch: sentEntries.list, characters: total(sentEntries.list) };
    const sentBranch = path === all ? undefined : delta(before?.branch, path);
    if (sentBranch !== undefined) {
      context.branch = sentBranch.added;
      if (sentBranch.from > 0) context.branchFrom = sentBranch.from;
      record.branch = sentBranch.list;
      record.characters += total(sentBranch.list);
    }
  }
  const forget = leastRecent(sent, sessionId, record.characters, limits);
  if (forget.length > 0) context.forget = forget;
  return () => {
    for (const id of forget) sent.delete(id);
    sent.delete(sessionId);
    sent.set(sessionId, record);
  };
}

/**
 * What to send of `now` after `before`: how many of its first items were sent (`from`), the
 * rest as JSON carries it, and the list as the tool host will hold it; `undefined` when JSON
 * cannot carry an item.
 */
function delta(
  before: SentList | undefined,
  now: readonly unknown[],
): { from: number; added: unknown[]; list: SentList } | undefined {
  const from = sharedStart(before?.items, now);
  const texts: string[] = [];
  for (let at = from; at < now.length; at++) {
    const text = jsonText(now[at]);
    if (text === undefined && now[at] !== undefined && typeof now[at] !== "function") return undefined;
    texts.push(text ?? "null"); // as JSON writes an array's undefined
  }
  const sizes = (before?.sizes ?? []).slice(0, from).concat(texts.map((text) => text.length + 1));
  const added = texts.length === 0 ? [] : (JSON.parse(`[${texts.join(",")}]`) as unknown[]);
  return { from, added, list: { items: [...now], sizes } };
}

function total(list: SentList): number {
  return list.sizes.reduce((sum, size) => sum + size, 0);
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

function joined(before: readonly unknown[] | undefined, from: number | undefined, added: unknown[]) {
  return from === undefined ? added : (before ?? []).slice(0, from).concat(added);
}

/** The sessions to forget, least recent first, so that `sessionId`'s `characters` fit. */
function leastRecent(
  sent: SentConversations,
  sessionId: string,
  characters: number,
  limits: ConversationLimits,
): string[] {
  let count = sent.has(sessionId) ? sent.size : sent.size + 1;
  let total = characters;
  for (const [id, record] of sent) if (id !== sessionId) total += record.characters;
  const forget: string[] = [];
  for (const [id, record] of sent) {
    if (count <= limits.sessions && total <= limits.characters) break;
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
