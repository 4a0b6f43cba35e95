import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  openSqliteJournal,
  type PendingActionEvent,
  PendingActionStore,
  type ProcessIdentity,
  Session,
  THIS_PROCESS,
} from "../../src/index.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends: `clear()`
 * and `release()` (a session's `dispose()`) took such an action off the stack without any
 * event, as the durable store refused to discard it again. Its listeners (a steering UI, the
 * tool host's count of what it keeps) went on believing it pending.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-cleared-elsewhere-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** Another process of this machine, alive (our parent's pid), with its own identity. */
const other: ProcessIdentity = { host: THIS_PROCESS.host, pid: process.ppid, token: "another-process" };

/** A callback action staged here, then discarded by another process; this stack not read since. */
async function discardedThere() {
  const file = join(folder, "pending.db");
  const here = await PendingActionStore.open(openSqliteJournal(file), "chat-1");
  const rejected: string[] = [];
  const record = here.push({
    label: "Rename A",
    apply: async () => ({ content: [] }),
    reject: async (reason) => {
      rejected.push(reason);
      return undefined;
    },
  });
  await here.flush();
  const heard: PendingActionEvent[] = [];
  here.subscribe((event) => heard.push(event));
  const there = await PendingActionStore.open(openSqliteJournal(file), "chat-1", { process: other });
  expect(there.pop()?.id).toBe(record.id);
  await there.flush();
  return { here, heard, id: record.id, rejected };
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
