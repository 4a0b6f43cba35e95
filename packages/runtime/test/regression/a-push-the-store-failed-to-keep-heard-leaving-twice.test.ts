import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, type PendingActionEvent, PendingActionStore } from "../../src/index.js";
import { journalWith } from "../journal-wrapper.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends: an action
 * taken off the stack (a `clear()`, a `pop()`) while the durable store was still staging it,
 * which then failed to keep it, was heard leaving twice: once as it was taken off, once as
 * "not kept" (and a clear's, since the store had no record to discard, as "discarded by
 * another process" besides).
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-unkept-taken-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A store whose journal answers the next stage late, failing it when told to. */
async function failingStage() {
  let fail: () => void = () => {};
  let failing = false;
  const sqlite = openSqliteJournal(join(folder, "pending.db"));
  const journal = journalWith(sqlite, {
    stage: (record, process) => {
      if (!failing) return sqlite.stage(record, process);
      return new Promise<void>((_resolve, reject) => {
        fail = () => reject(new Error("connection reset"));
      });
    },
  });
  const store = await PendingActionStore.open(journal, "s1");
  const heard: PendingActionEvent[] = [];
  store.subscribe((event) => heard.push(event));
  failing = true;
  const { id } = store.push({ label: "Rename A", apply: async () => ({ content: [] }) });
  const left = () =>
    heard.flatMap((event) =>
      event.type === "action-discarded" && event.record.id === id ? [event.reason] : [],
    );
  return { store, left, fail: () => fail() };
}

describe("an action the durable store failed to keep, taken off the stack while it staged", () => {
  it("by clear() is heard leaving once", async () => {
    const { store, left, fail } = await failingStage();
    const clearing = store.clear("new conversation");
    fail();
    await clearing;
    await expect(store.flush()).rejects.toThrow(/could not keep the pending action "Rename A"/);
    expect(left()).toEqual([
      expect.stringContaining("not kept: the durable store failed (connection reset)"),
    ]);
  });

  it("by pop() is heard leaving once", async () => {
    const { store, left, fail } = await failingStage();
    store.pop();
    fail();
    await expect(store.flush()).rejects.toThrow(/could not keep the pending action "Rename A"/);
    expect(left()).toEqual(["removed by pop()"]);
  });
});
