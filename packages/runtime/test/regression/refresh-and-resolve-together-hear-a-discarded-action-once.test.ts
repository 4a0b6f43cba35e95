import { describe, expect, it } from "vitest";
import { openSqliteJournal, type PendingActionJournal, Session } from "../../src/index.js";
import { journalWith } from "../journal-wrapper.js";
import { discardedByAnotherProcess, journalFilePerTest } from "../shared-store.js";

/**
 * A second read of the event a callback action discarded elsewhere sends: this process's
 * refresh and resolve, and a clear, each find it gone from the durable store while the others
 * run. Whichever takes it off this stack tells its listeners, once.
 */
const journalFile = journalFilePerTest("tooldock-heard-once-");

/** The journal as SQLite keeps it, or answering every call a turn later (a database server). */
const journals: Array<[string, (file: string) => PendingActionJournal]> = [
  ["SQLite", (file) => openSqliteJournal(file)],
  [
    "a store answering later",
    (file) => {
      const sqlite = openSqliteJournal(file);
      return journalWith(sqlite, {
        open: async (sessionId) => sqlite.open(sessionId),
        move: async (id, move) => sqlite.move(id, move),
      });
    },
  ],
];

async function discardedThere(journal: PendingActionJournal, file: string) {
  const { here, heard, id } = await discardedByAnotherProcess(journal, file, "s1");
  const left = () => heard.filter((event) => event.type !== "action-pending" && event.record.id === id);
  return { here, left };
}

describe.each(journals)("a callback action discarded elsewhere, with %s", (_name, open) => {
  it("is heard leaving once when a refresh and a resolve find it gone together", async () => {
    const file = journalFile();
    const { here, left } = await discardedThere(open(file), file);
    const session = new Session({ sessionId: "s1", pending: here });
    const [, resolved] = await Promise.all([
      here.refresh(),
      session.execute({ toolCallId: "r", name: "resolve", params: { action: "apply", reason: "go" } }),
      here.refresh(),
    ]);
    expect(resolved.isError).toBe(true);
    await here.refresh();
    expect(here.list()).toEqual([]);
    expect(left().map((event) => event.type)).toEqual(["action-discarded"]);
    await session.dispose();
  });

  it("is heard leaving once when a clear and a refresh find it gone together", async () => {
    const file = journalFile();
    const { here, left } = await discardedThere(open(file), file);
    await Promise.all([here.refresh(), here.clear("new conversation"), here.refresh()]);
    await here.refresh();
    expect(here.list()).toEqual([]);
    expect(left().map((event) => event.type)).toEqual(["action-discarded"]);
  });
});
