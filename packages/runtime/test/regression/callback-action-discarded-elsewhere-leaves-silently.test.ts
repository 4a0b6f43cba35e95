import { describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";
import { journalFilePerTest, openAsAnotherProcess, stagedHere } from "../shared-store.js";

/**
 * Found by a second read of the tool host's cap: a callback action of this process that
 * another process sharing the durable store discarded left this stack without an event, when
 * this process next read the store (`refresh()`, or a resolve that found its stack stale).
 * Its listeners (a steering UI, the tool host's count of what it keeps) went on believing it
 * pending. Now they hear `action-discarded`, saying another process discarded it.
 */
const journalFile = journalFilePerTest("tooldock-discarded-elsewhere-");

/** A callback action staged here, then discarded by another process's resolve. */
async function stagedHereDiscardedThere() {
  const file = journalFile();
  const staged = await stagedHere(openSqliteJournal(file), "chat-1");
  const there = new Session({ sessionId: "chat-1", pending: await openAsAnotherProcess(file, "chat-1") });
  const discarded = await there.execute({
    toolCallId: "r1",
    name: "resolve",
    params: { action: "discard", reason: "not wanted" },
  });
  expect(discarded.isError).not.toBe(true);
  await there.dispose();
  return staged;
}

describe("a callback action another process discarded", () => {
  it("is heard leaving when this process refreshes", async () => {
    const { here, heard, id, rejected } = await stagedHereDiscardedThere();
    await here.refresh();
    expect(here.list()).toEqual([]);
    expect(heard).toEqual([
      expect.objectContaining({
        type: "action-discarded",
        record: expect.objectContaining({ id }),
        reason: expect.stringContaining("discarded elsewhere"),
      }),
    ]);
    expect(rejected).toEqual([]);
  });

  it("is heard leaving when this process's resolve finds it gone", async () => {
    const { here, heard, id } = await stagedHereDiscardedThere();
    const session = new Session({ sessionId: "chat-1", pending: here });
    const result = await session.execute({
      toolCallId: "r2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(result.isError).toBe(true);
    expect(here.list()).toEqual([]);
    expect(heard.filter((event) => event.type === "action-discarded")).toEqual([
      expect.objectContaining({ record: expect.objectContaining({ id }) }),
    ]);
    await session.dispose();
  });
});
