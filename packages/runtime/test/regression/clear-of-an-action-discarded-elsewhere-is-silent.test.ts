import { describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";
import { discardedByAnotherProcess, journalFilePerTest } from "../shared-store.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends: `clear()`
 * and `release()` (a session's `dispose()`) took such an action off the stack without any
 * event, as the durable store refused to discard it again. Its listeners (a steering UI, the
 * tool host's count of what it keeps) went on believing it pending.
 */
const journalFile = journalFilePerTest("tooldock-cleared-elsewhere-");

/** A callback action staged here, then discarded by another process; this stack not read since. */
function discardedThere() {
  const file = journalFile();
  return discardedByAnotherProcess(openSqliteJournal(file), file, "chat-1");
}

describe("a callback action another process discarded, taken off this stack", () => {
  it("by clear() is heard leaving, its reject not run", async () => {
    const { here, heard, id, rejected } = await discardedThere();
    await here.clear("new conversation");
    expect(heard).toEqual([
      expect.objectContaining({
        type: "action-discarded",
        record: expect.objectContaining({ id }),
        reason: expect.stringContaining("discarded elsewhere"),
      }),
    ]);
    expect(rejected).toEqual([]);
  });

  it("by a session's dispose() (release) is heard leaving, its reject not run", async () => {
    const { here, heard, id, rejected } = await discardedThere();
    const session = new Session({ sessionId: "chat-1", pending: here });
    await session.dispose();
    expect(heard.map((event) => [event.type, event.record.id])).toEqual([["action-discarded", id]]);
    expect(rejected).toEqual([]);
  });
});
