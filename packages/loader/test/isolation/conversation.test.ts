import type { ConversationEntry, CustomToolContext } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { MAX_CONVERSATIONS } from "../../src/isolation/conversation-sync.js";
import { load, project, text } from "./isolation-helpers.js";

/** A tool that answers what its `ctx.sessionManager` reads: each entry's id and text, and the branch's. */
const READER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "reader",
  label: "Reader",
  description: "Reads the conversation",
  parameters: Type.Object({}),
  async execute(id, params, onUpdate, ctx) {
    const read = (entries) => entries.map((entry) => entry.id + ":" + entry.message.content).join(",");
    return { content: [{ type: "text", text: read(ctx.sessionManager.getEntries()) + "|" + read(ctx.sessionManager.getBranch()) }] };
  },
});
`;

/** How many times each entry was written as JSON, by id: what crossed to the tool host. */
const written = new Map<string, number>();

/** An entry that counts how many times it is written as JSON. */
function entry(id: string, content = id): ConversationEntry {
  const value = { type: "message", id, message: { role: "user", content } };
  return {
    ...value,
    toJSON: () => {
      written.set(id, (written.get(id) ?? 0) + 1);
      return value;
    },
  } as unknown as ConversationEntry;
}

const ids = (...values: string[]) => values.map((id) => `${id}:${id}`).join(",");

describe("the conversation a call in the tool host reads", () => {
  // Each isolated call copied and sent the whole conversation: 200 entries of 2 KB made every
  // call of a long session ~20 ms, 800 entries ~70 ms, growing with the conversation.
  it("isolated-call-resends-the-whole-conversation: sends each entry once, and the call still reads them all", async () => {
    written.clear();
    const transcript: ConversationEntry[] = [entry("a"), entry("b")];
    const where = await project({ "reader.ts": READER });
    const { session } = await load(where, "process", {}, { conversation: { entries: () => transcript } });
    const call = async () => text(await session.execute({ toolCallId: "1", name: "reader", params: {} }));

    expect(await call()).toBe(`${ids("a", "b")}|${ids("a", "b")}`);
    transcript.push(entry("c"));
    expect(await call()).toBe(`${ids("a", "b", "c")}|${ids("a", "b", "c")}`);
    expect(await call()).toBe(`${ids("a", "b", "c")}|${ids("a", "b", "c")}`);
    expect(Object.fromEntries(written)).toEqual({ a: 1, b: 1, c: 1 });

    // An entry replaced by a new object is sent again, and what follows it; a shorter list is seen.
    transcript[1] = entry("b", "edited");
    expect(await call()).toBe("a:a,b:edited,c:c|a:a,b:edited,c:c");
    expect(Object.fromEntries(written)).toEqual({ a: 1, b: 2, c: 2 });
    transcript.splice(1);
    expect(await call()).toBe(`${ids("a")}|${ids("a")}`);
    transcript.length = 0;
    expect(await call()).toBe("|");
  });

  it("keeps each session's conversation apart, with a branch of its own, and sends all of a session it forgot", async () => {
    written.clear();
    const where = await project({ "reader.ts": READER });
    const { tools } = await load(where, "process");
    const reader = tools.find((loaded) => loaded.tool.name === "reader")?.tool;
    if (reader === undefined) throw new Error("no reader");
    const conversations = new Map<string, { entries: ConversationEntry[]; branch: ConversationEntry[] }>();
    const call = async (sessionId: string) => {
      const conversation = conversations.get(sessionId) ?? { entries: [], branch: [] };
      const ctx = {
        sessionId,
        cwd: where.work,
        hasPendingActions: () => false,
        abort: () => {},
        sessionManager: {
          getEntries: () => [...conversation.entries],
          getBranch: () => [...conversation.branch],
          getSessionFile: () => undefined,
          getSessionId: () => sessionId,
          getCwd: () => where.work,
        },
      } as unknown as CustomToolContext;
      return text(await reader.execute("1", {}, undefined, ctx));
    };

    const a1 = entry("a1");
    const a2 = entry("a2");
    conversations.set("A", { entries: [a1, a2], branch: [a1] });
    const b1 = entry("b1");
    conversations.set("B", { entries: [b1], branch: [b1] });
    expect(await call("A")).toBe(`${ids("a1", "a2")}|${ids("a1")}`);
    expect(await call("B")).toBe(`${ids("b1")}|${ids("b1")}`);
    const a3 = entry("a3");
    conversations.set("A", { entries: [a1, a2, a3], branch: [a1, a3] });
    expect(await call("A")).toBe(`${ids("a1", "a2", "a3")}|${ids("a1", "a3")}`);
    expect(written.get("a1")).toBe(2); // once in the entries, once in the branch (a Session's branch is its entries)
    expect(written.get("a3")).toBe(2);

    // More sessions than either side remembers: "A" is forgotten on both sides alike.
    for (let index = 0; index < MAX_CONVERSATIONS; index++) {
      const only = entry(`s${index}`);
      conversations.set(`S${index}`, { entries: [only], branch: [only] });
      await call(`S${index}`);
    }
    expect(await call("A")).toBe(`${ids("a1", "a2", "a3")}|${ids("a1", "a3")}`);
    expect(written.get("a1")).toBe(4);
    expect(await call("A")).toBe(`${ids("a1", "a2", "a3")}|${ids("a1", "a3")}`);
    expect(written.get("a1")).toBe(4);
  });
});
