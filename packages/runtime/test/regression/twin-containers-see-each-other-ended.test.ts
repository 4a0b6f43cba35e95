import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  openSqliteJournal,
  type PendingActionJournal,
  type ProcessIdentity,
  Session,
  THIS_PROCESS,
} from "../../src/index.js";
import { journalWith } from "../journal-wrapper.js";
import { durableRenameTool } from "../tools.js";

/**
 * Found by a bug hunt (twin-containers): two containers with the same hostname both run as
 * pid 1. Each took the other's pid 1 for its own earlier run, so a live apply in one was
 * listed as interrupted by the other and discarded; the store's own liveness answer
 * (PostgreSQL's lock), which knew better, was asked only for other hosts. It is asked first.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-twin-containers-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The journal, telling `alive` for every process asked. */
function telling(journal: PendingActionJournal, alive: boolean | undefined): PendingActionJournal {
  return journalWith(journal, { processAlive: async () => alive });
}

describe("an apply by a process with this host's name and this pid, another token", () => {
  it.each([
    [true, "applying", []],
    [undefined, "interrupted", ["Rename A"]],
  ] as const)("when the store tells %s, is %s", async (alive, state, listed) => {
    const file = join(folder, "pending.db");
    const staging = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    staging.register(durableRenameTool(async () => undefined));
    await staging.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const id = staging.pending.list()[0]?.id as string;
    await staging.dispose();
    const journal = openSqliteJournal(file);
    const twin: ProcessIdentity = { host: THIS_PROCESS.host, pid: THIS_PROCESS.pid, token: "twin-container" };
    expect(await journal.move(id, { from: ["pending"], to: "applying", owner: twin })).toBe(true);

    const reader = await Session.open({ sessionId: "s1", journal: telling(openSqliteJournal(file), alive) });
    expect(reader.pending.list().map((record) => record.label)).toEqual(listed);
    await reader.dispose();
    expect((await journal.open("s1"))[0]?.state).toBe(state);
    await journal.close();
  });
});
