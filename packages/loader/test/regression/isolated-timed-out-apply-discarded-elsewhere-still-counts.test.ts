// A second read of the event a callback action discarded elsewhere sends, for the tool host: an
// isolated tool's apply timed out (the action back on the stack, its apply still running in the
// tool host); another process took this one for ended (its store's liveness answer said so),
// recorded the action interrupted and discarded it. When this process next reads the store, the
// action leaves its stack with an event while its apply still runs: once that apply fails, the
// tool host forgets the action, and it no longer counts toward the cap. The journal is SQLite's,
// in memory.
import { join } from "node:path";
import { openSqliteJournal, type PendingActionJournal, PendingActionStore } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import { ToolHost } from "../../src/index.js";
import { MAX_STAGED_ACTIONS } from "../../src/isolation/isolated-tools.js";
import { LATE_FAILING_STAGER, load, project, sqliteInMemory, text } from "../isolation/isolation-helpers.js";

/** `journal`, telling every process asked about ended (a liveness lock lost). */
function tellingEnded(journal: PendingActionJournal): PendingActionJournal {
  return {
    open: (sessionId) => journal.open(sessionId),
    stage: (record, process) => journal.stage(record, process),
    move: (id, move) => journal.move(id, move),
    history: (filter) => journal.history(filter),
    close: () => {},
    processAlive: () => false,
  };
}

describe("a callback action whose timed-out apply still runs, discarded by another process", () => {
  it("no longer counts once its late apply failed", async () => {
    const where = await project({ "stager.ts": LATE_FAILING_STAGER });
    const journal = openSqliteJournal(join(where.root, "journal.db"), { database: sqliteInMemory() });
    const pending = await PendingActionStore.open(journal, "chat");
    const host = new ToolHost({ cwd: where.work });
    const { session, isolated } = await load(
      where,
      "process",
      { host },
      { sessionId: "chat", pending, pendingPolicy: "allow", resolveTimeoutMs: 100 },
    );
    if (isolated === undefined) throw new Error("no tool host");
    const stops: string[] = [];
    isolated.subscribe((event) => {
      if (event.type === "tool-host-stopped") stops.push(event.reason);
    });
    const heard: string[] = [];
    const late = new Promise<void>((resolve) =>
      session.pending.subscribe((event) => {
        if (event.type === "action-settled-late") resolve();
        if (event.type === "action-discarded") heard.push(event.reason);
      }),
    );
    await session.execute({ toolCallId: "s", name: "stager", params: { kind: "slow" } });
    const applied = await session.execute({
      toolCallId: "r",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(text(applied)).toMatch(/did not finish within/); // back on the stack, still running
    const other = await PendingActionStore.open(tellingEnded(journal), "chat", {
      process: { host: "elsewhere", pid: 1, token: "other" },
    });
    expect(other.list().map((record) => record.interrupted)).toEqual([true]);
    expect(other.pop()?.label).toBe("slow");
    await session.pending.refresh();
    expect(session.pending.size).toBe(0);
    expect(heard).toEqual([expect.stringContaining("discarded elsewhere")]);
    host.events.emit("fail"); // the late apply fails in the tool host
    await late;
    // Nothing is pending: MAX_STAGED_ACTIONS callback actions at once must be allowed.
    const result = await session.execute({
      toolCallId: "flood",
      name: "stager",
      params: { kind: "fast", times: MAX_STAGED_ACTIONS },
    });
    expect(text(result)).toBe("staged");
    expect(stops).toEqual([]);
  });
});
