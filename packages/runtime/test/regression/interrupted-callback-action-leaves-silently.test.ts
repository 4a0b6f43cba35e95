import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, type PendingActionEvent, Session } from "../../src/index.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends: a callback
 * action of this stack whose apply had timed out, then ended, was recorded interrupted by
 * another session of the same conversation (another Session object of this process, or a
 * process that took this one for ended). Reading the store replaced it on this stack by a
 * stand-in that no longer said it was this stack's own, so once the other session discarded
 * it, it left this stack without the event its listeners (the tool host's count) wait for.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-interrupted-own-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("a callback action of this stack recorded interrupted by another session", () => {
  it("is heard leaving once the other session discards it", async () => {
    const file = join(folder, "pending.db");
    const here = await Session.open({
      sessionId: "s1",
      journal: openSqliteJournal(file),
      resolveTimeoutMs: 50,
    });
    const heard: PendingActionEvent[] = [];
    here.pending.subscribe((event) => heard.push(event));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { id } = here.pending.push({
      label: "Rename A",
      apply: async () => {
        await gate;
        throw new Error("disk full");
      },
    });
    await here.pending.flush();
    const timedOut = await here.execute({
      toolCallId: "1",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(JSON.stringify(timedOut.content)).toContain("still pending");
    const settledLate = new Promise<void>((resolve) =>
      here.pending.subscribe((event) => {
        if (event.type === "action-settled-late") resolve();
      }),
    );
    release();
    await settledLate;
    await new Promise((resolve) => setImmediate(resolve)); // its settlement is noted a turn later

    const there = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    expect(there.pending.list().map((record) => [record.id, record.interrupted])).toEqual([[id, true]]);
    await here.pending.refresh();
    expect(here.pending.list().map((record) => [record.id, record.interrupted])).toEqual([[id, true]]);
    const discarded = await there.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "discard", reason: "never mind" },
    });
    expect(discarded.isError).toBeUndefined();
    await here.pending.refresh();
    expect(here.pending.list()).toEqual([]);
    expect(
      heard.filter((event) => event.type === "action-discarded").map((event) => event.record.id),
    ).toEqual([id]);
    await there.dispose();
    await here.dispose();
  });
});
