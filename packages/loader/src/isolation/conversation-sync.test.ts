import { describe, expect, it } from "vitest";
import {
  type Conversation,
  MAX_CONVERSATIONS,
  receiveConversation,
  type SentConversations,
  sendConversation,
} from "./conversation-sync.js";
import type { CallContext } from "./protocol.js";

/** The characters of JSON the tool host may keep in these tests (16 million in use). */
const LIMIT = 1_000;

/** One message from the host to its tool host: what the tool host reads from it. */
function message(
  host: SentConversations,
  toolHost: Map<string, Conversation>,
  sessionId: string,
  entries: readonly unknown[],
  branch: readonly unknown[] = entries,
): { context: CallContext; read: CallContext } {
  const context: CallContext = { sessionId, cwd: "/", hasPendingActions: false };
  const written = sendConversation(host, context, entries, branch, {
    sessions: MAX_CONVERSATIONS,
    characters: LIMIT,
  });
  const wire = JSON.parse(JSON.stringify(context)) as CallContext;
  written();
  return { context, read: receiveConversation(toolHost, wire) };
}

describe("sendConversation and receiveConversation", () => {
  it("give the tool host the host's lists, whatever happens to them, through many sessions", () => {
    const host: SentConversations = new Map();
    const toolHost = new Map<string, Conversation>();
    const lists = new Map<string, { entries: object[]; branch: object[] }>();
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let step = 0; step < 2000; step++) {
      const sessionId = `s${random(MAX_CONVERSATIONS + 8)}`;
      const list = lists.get(sessionId) ?? { entries: [], branch: [] };
      lists.set(sessionId, list);
      const change = random(6);
      if (change <= 2) list.entries.push({ n: step });
      else if (change === 3 && list.entries.length > 0)
        list.entries[random(list.entries.length)] = { edited: step };
      else if (change === 4) list.entries.splice(random(list.entries.length + 1));
      list.branch = random(3) === 0 ? list.entries.filter((_, at) => at % 2 === 0) : list.entries;
      const { read } = message(host, toolHost, sessionId, [...list.entries], [...list.branch]);
      expect(read.entries).toEqual(list.entries);
      expect(read.branch ?? read.entries).toEqual(list.branch);
      expect([...toolHost.keys()].sort()).toEqual([...host.keys()].sort());
      expect(toolHost.size).toBeLessThanOrEqual(MAX_CONVERSATIONS);
    }
  });

  it("sends only what is new, and everything once a list no longer starts as before", () => {
    const host: SentConversations = new Map();
    const toolHost = new Map<string, Conversation>();
    const [a, b, c, d] = [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }];
    expect(message(host, toolHost, "s", [a, b]).context).toMatchObject({ entries: [a, b] });
    const next = message(host, toolHost, "s", [a, b, c]).context;
    expect(next).toMatchObject({ entries: [c], entriesFrom: 2 });
    expect(message(host, toolHost, "s", [a, b, c]).context.entries).toBeUndefined();
    expect(message(host, toolHost, "s", [a, d]).context).toMatchObject({ entries: [d], entriesFrom: 1 });
    expect(message(host, toolHost, "s", [d]).context).toMatchObject({ entries: [d] });
    expect(message(host, toolHost, "s", [d]).context.entriesFrom).toBe(1);
  });

  // Each session's conversation stays in the tool host's heap: their size is bounded, not only their number.
  it("has the tool host forget the least recent sessions past the characters it may keep", () => {
    const host: SentConversations = new Map();
    const toolHost = new Map<string, Conversation>();
    const big = (id: string) => ({ id, text: "x".repeat(Math.ceil(LIMIT / 2)) });
    const first = [big("a")];
    message(host, toolHost, "A", first);
    message(host, toolHost, "B", [big("b")]);
    expect([...toolHost.keys()]).toEqual(["B"]);
    expect(message(host, toolHost, "A", first).read.entries).toEqual(first);
    expect([...toolHost.keys()]).toEqual(["A"]);
  });

  // Found by a second read: the record kept the host's own array, so a host whose
  // getEntries() hands out its live list (and pushes to it) had every entry counted as sent.
  it("host-hands-out-its-live-list: sees what the host added to the very array it gave before", () => {
    const host: SentConversations = new Map();
    const toolHost = new Map<string, Conversation>();
    const live: object[] = [{ id: "a" }];
    expect(message(host, toolHost, "s", live).read.entries).toEqual([{ id: "a" }]);
    live.push({ id: "b" });
    expect(message(host, toolHost, "s", live).read.entries).toEqual([{ id: "a" }, { id: "b" }]);
  });

  // Found by a second read: the size kept was guessed in proportion to the entries kept, so a
  // large first entry and a last one replaced at each call shrank the guess towards nothing.
  it("conversation-size-guessed-away: counts each entry kept at its own size", () => {
    const host: SentConversations = new Map();
    const toolHost = new Map<string, Conversation>();
    const half = Math.ceil(LIMIT / 2);
    const first = { id: "a", text: "x".repeat(half) };
    for (let step = 0; step < 8; step++) message(host, toolHost, "A", [first, { step }]);
    message(host, toolHost, "B", [{ id: "b", text: "x".repeat(half) }]);
    expect([...toolHost.keys()]).toEqual(["B"]);
  });

  it("sends no conversation when JSON cannot carry an entry, as before", () => {
    const host: SentConversations = new Map();
    const toolHost = new Map<string, Conversation>();
    const { read } = message(host, toolHost, "s", [{ big: 1n }]);
    expect(read.entries).toEqual([]);
    expect(message(host, toolHost, "s", [{ ok: 1 }]).read.entries).toEqual([{ ok: 1 }]);
  });
});
