// Found by a second read of the tool host's cap: a callback action an isolated tool staged in a
// journaled session, then discarded by another process sharing the journal, left the session's
// stack without an event when the host next read the journal (`refresh()`, as a chat server does
// when a turn starts). The tool host went on counting it (and keeping its closures), and after
// 1,000 such actions it was stopped with none pending. The journal is SQLite's, in memory.
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
  description: "Stages as many callback actions as it is told",
  parameters: Type.Object({ times: Type.Number() }),
  async execute(_id, { times }, _onUpdate, ctx) {
    for (let each = 0; each < times; each += 1)
      ctx.pushPendingAction({ label: "preview", apply: async () => ({ content: [{ type: "text", text: "applied" }] }) });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;

describe("callback actions another process discarded", { timeout: 120_000 }, () => {
  it("stop counting once this process reads the journal", async () => {
    const where = await project({ "stager.ts": STAGER });
    const { tools, isolated } = await load(where, "process", {}, { pendingPolicy: "allow" });
    if (isolated === undefined) throw new Error("no tool host");
    const pid = isolated.pid;
    const stops: string[] = [];
    isolated.subscribe((event) => {
      if (event.type === "tool-host-stopped") stops.push(event.reason);
    });
    const journal = openSqliteJournal(join(where.root, "journal.db"), { database: sqliteInMemory() });
    const session = await Session.open({ sessionId: "chat", journal, pendingPolicy: "allow" });
    for (const { tool } of tools) session.register(tool);
    const other = await PendingActionStore.open(journal, "chat", {
      process: { host: "elsewhere", pid: 1, token: "other" },
    });
    // Half the cap at a time, each half discarded elsewhere: never more than that pending at once.
    const half = MAX_STAGED_ACTIONS / 2;
    for (let round = 0; round < 3; round += 1) {
      const result = await session.execute({
        toolCallId: `c${round}`,
        name: "stager",
        params: { times: half },
      });
      expect(text(result), `round ${round}: ${stops.join(" ")}`).toBe("staged");
      await other.refresh();
      for (let each = 0; each < half; each += 1) expect(other.pop()?.label).toBe("preview"); // another process discards them
      await session.pending.refresh(); // the chat server's turn start
      expect(session.pending.size).toBe(0);
    }
    expect(stops).toEqual([]);
    expect(isolated.pid).toBe(pid);
    await session.dispose();
  });
});
