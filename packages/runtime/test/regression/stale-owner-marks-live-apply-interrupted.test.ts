import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  openSqliteJournal,
  type PendingActionJournal,
  type ProcessIdentity,
  Session,
} from "../../src/index.js";
import { journalWith } from "../journal-wrapper.js";
import { durableRenameTool } from "../tools.js";

/**
 * Found by a bug hunt: a process read its session while an action was `applying` by process A;
 * meanwhile A's apply failed (the record went back), A ended, and process C claimed the record
 * and began to apply it. The reader, seeing A gone, then moved the record to `interrupted`:
 * C's live apply was marked interrupted, and C's outcome could not be recorded. The move now
 * holds only while the process seen applying it still does.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-stale-owner-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A journal whose reads still show a record as applying by `staleOwner` (an answer that came late). */
function readingStale(journal: PendingActionJournal, staleOwner: ProcessIdentity): PendingActionJournal {
  return journalWith(journal, {
    open: async (sessionId) =>
      (await journal.open(sessionId)).map((record) =>
        record.state === "applying" ? { ...record, owner: staleOwner } : record,
      ),
  });
}

describe("a record another process claimed after the one seen applying it ended", () => {
  it("is not marked interrupted by a reader that saw the ended one (stale-owner-marks-live-apply-interrupted)", async () => {
    const file = join(folder, "pending.db");
    const staging = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    staging.register(durableRenameTool(async () => undefined));
    await staging.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const [record] = staging.pending.list();
    await staging.dispose();

    // Process C (alive: this test's parent) holds the record now.
    const journal = openSqliteJournal(file);
    const c: ProcessIdentity = { host: hostname(), pid: process.ppid, token: "process-c" };
    expect(await journal.move(record?.id as string, { from: ["pending"], to: "applying", owner: c })).toBe(
      true,
    );

    // The reader still sees process A (ended: no such pid) applying it.
    const a: ProcessIdentity = { host: hostname(), pid: 2 ** 22 + 7, token: "process-a" };
    const reader = await Session.open({ sessionId: "s1", journal: readingStale(openSqliteJournal(file), a) });
    expect(reader.pending.list()).toEqual([]);
    await reader.dispose();
    const [after] = await journal.open("s1");
    expect({ state: after?.state, owner: after?.owner.token }).toEqual({
      state: "applying",
      owner: "process-c",
    });
    await journal.close();
  });
});
