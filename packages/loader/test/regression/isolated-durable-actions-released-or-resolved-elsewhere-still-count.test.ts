// Found by a second read of the fix that stopped counting durable actions that had left their
// stack: it heard of a departure only from a store's events, and a durable action can leave
// without one: `release()` (a journaled Session's dispose, as the chat server closes each
// conversation) keeps it in the journal and drops it from the stack silently; `refresh()` drops
// one another process resolved. Either way it never stopped counting, and after 1,000 of them
// the tool host was stopped. The journal is SQLite's, shared as several processes share it.
import { join } from "node:path";
import { openSqliteJournal, PendingActionStore, Session } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { load, project, sqliteInMemory, text } from "../isolation/isolation-helpers.js";

const STAGER = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "stager",
  label: "Stager",
  description: "Stages one durable action",
  parameters: Type.Object({}),
  actions: { noop: { async apply() { return { content: [{ type: "text", text: "applied" }] }; } } },
  async execute(_id, _params, _onUpdate, ctx) {
    ctx.pushPendingAction({ label: "durable", handler: "noop", payload: 1 });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

const ROUNDS = MAX_STAGED_ACTIONS + 5;

async function setup() {
  const where = await project({ "stager.ts": STAGER });
  const loaded = await load(where, "process", {}, { pendingPolicy: "allow" });
  if (loaded.isolated === undefined) throw new Error("no tool host");
  const stops: string[] = [];
  loaded.isolated.subscribe((event) => {
    if (event.type === "tool-host-stopped") stops.push(event.reason);
  });
  const journal = openSqliteJournal(join(where.root, "journal.db"), { database: sqliteInMemory() });
  return { ...loaded, pid: loaded.isolated.pid, stops, journal };
}

describe("durable actions that left the stack without an event", { timeout: 120_000 }, () => {
  it("a conversation closed (dispose → release) with its durable action kept in the journal", async () => {
    const { tools, isolated, pid, stops, journal } = await setup();
    for (let round = 0; round < ROUNDS; round += 1) {
      // One conversation each, as the chat server opens and closes them: one action pending in it.
      const session = await Session.open({ sessionId: `chat-${round}`, journal, pendingPolicy: "allow" });
      for (const { tool } of tools) session.register(tool);
      const result = await session.execute({ toolCallId: `c${round}`, name: "stager", params: {} });
      expect(text(result), `round ${round}: ${stops.join(" ")}`).toBe("staged");
      await session.dispose();
      // The conversation's action is applied later, in another process (here: another store).
      const other = await PendingActionStore.open(journal, `chat-${round}`, {
        process: { host: "elsewhere", pid: 1, token: `other-${round}` },
      });
      expect(other.pop()?.label).toBe("durable");
    }
    expect(stops).toEqual([]);
    expect(isolated?.pid).toBe(pid);
  });

  it("one resolved by another process, dropped by refresh()", async () => {
    const { tools, isolated, pid, stops, journal } = await setup();
    const session = await Session.open({ sessionId: "chat", journal, pendingPolicy: "allow" });
    for (const { tool } of tools) session.register(tool);
    const other = await PendingActionStore.open(journal, "chat", {
      process: { host: "elsewhere", pid: 1, token: "other" },
    });
    for (let round = 0; round < ROUNDS; round += 1) {
      const result = await session.execute({ toolCallId: `c${round}`, name: "stager", params: {} });
      expect(text(result), `round ${round}: ${stops.join(" ")}`).toBe("staged");
      await other.refresh();
      expect(other.pop()?.label).toBe("durable"); // another process discards it
      await session.pending.refresh(); // the chat server's turn start
      expect(session.pending.size).toBe(0);
    }
    expect(stops).toEqual([]);
    expect(isolated?.pid).toBe(pid);
    await session.dispose();
  });
});
