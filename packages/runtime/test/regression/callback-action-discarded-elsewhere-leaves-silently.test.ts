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
 * Found by a second read of the tool host's cap: a callback action of this process that
 * another process sharing the durable store discarded left this stack without an event, when
 * this process next read the store (`refresh()`, or a resolve that found its stack stale).
 * Its listeners (a steering UI, the tool host's count of what it keeps) went on believing it
 * pending. Now they hear `action-discarded`, saying another process discarded it.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-discarded-elsewhere-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** Another process of this machine, alive (our parent's pid), with its own identity. */
const other: ProcessIdentity = { host: THIS_PROCESS.host, pid: process.ppid, token: "another-process" };

async function stagedHereDiscardedThere(): Promise<{
  here: PendingActionStore;
  heard: PendingActionEvent[];
  id: string;
  rejected: string[];
}> {
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
  const there = new Session({
    sessionId: "chat-1",
    pending: await PendingActionStore.open(openSqliteJournal(file), "chat-1", { process: other }),
  });
  const discarded = await there.execute({
    toolCallId: "r1",
    name: "resolve",
    params: { action: "discard", reason: "not wanted" },
  });
  expect(discarded.isError).not.toBe(true);
  await there.dispose();
  return { here, heard, id: record.id, rejected };
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
