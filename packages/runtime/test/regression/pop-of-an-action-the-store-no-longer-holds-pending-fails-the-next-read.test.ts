import { describe, expect, it } from "vitest";
import { openSqliteJournal, PendingActionStore, Session } from "../../src/index.js";
import { journalFilePerTest, openAsAnotherProcess } from "../shared-store.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends, looking at
 * the other ways such an action leaves this stack: `pop()` and `remove()` (the tool host's,
 * when it stops) recorded the removal only from `pending`. An action another process had
 * discarded failed the next read of the store ("failed to record a pending action earlier")
 * though nothing was wrong; one whose apply had timed out here (kept `applying` for this
 * process) stayed `applying`, and came back on the stack as interrupted once that apply ended.
 */
const journalFile = journalFilePerTest("tooldock-pop-gone-");

describe("pop() and remove() of an action the store no longer holds pending", () => {
  it("of one another process discarded, leave the next read alone", async () => {
    const file = journalFile();
    const here = await PendingActionStore.open(openSqliteJournal(file), "s1");
    const first = here.push({ label: "Rename A", apply: async () => ({ content: [] }) });
    const second = here.push({ label: "Rename B", apply: async () => ({ content: [] }) });
    await here.flush();
    const there = await openAsAnotherProcess(file, "s1");
    expect(there.pop()?.id).toBe(second.id);
    expect(there.pop()?.id).toBe(first.id);
    await there.flush();
    expect(here.pop()?.id).toBe(second.id);
    expect(here.remove(first.id, "lost: the tool host stopped")?.id).toBe(first.id);
    await here.refresh();
    expect(here.list()).toEqual([]);
  });

  it("of one whose apply timed out here, record it and keep it off", async () => {
    const file = journalFile();
    const session = await Session.open({
      sessionId: "s1",
      journal: openSqliteJournal(file),
      resolveTimeoutMs: 50,
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { id } = session.pending.push({
      label: "Rename A",
      apply: async () => {
        await gate;
        return { content: [] };
      },
    });
    await session.pending.flush();
    const timedOut = await session.execute({
      toolCallId: "1",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(JSON.stringify(timedOut.content)).toContain("still pending");
    expect(session.pending.pop()?.id).toBe(id);
    await session.pending.refresh();
    const settledLate = new Promise<void>((resolve) =>
      session.pending.subscribe((event) => {
        if (event.type === "action-settled-late") resolve();
      }),
    );
    release();
    await settledLate;
    await new Promise((resolve) => setImmediate(resolve)); // its settlement is noted a turn later
    await session.pending.refresh();
    expect(session.pending.list()).toEqual([]);
    const steps = await session.pending.history({ actionId: id });
    expect(steps.map((step) => step.kind)).toEqual(["staged", "discarded"]);
    await session.dispose();
  });
});
