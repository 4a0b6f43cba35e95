import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, type PendingActionEvent, Session } from "../../src/index.js";

/**
 * Found by a second read of the event a callback action discarded elsewhere sends: two
 * Session objects of one conversation in one process (each with its store), the second one
 * discarding the first one's callback action. The first one's listeners heard it was
 * "discarded by another process": a host looking for that process found none.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-other-session-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("a callback action another Session of this process discarded", () => {
  it("is heard leaving without blaming another process", async () => {
    const file = join(folder, "pending.db");
    const here = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    const heard: PendingActionEvent[] = [];
    here.pending.subscribe((event) => heard.push(event));
    const { id } = here.pending.push({ label: "Rename A", apply: async () => ({ content: [] }) });
    await here.pending.flush();
    const there = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    const discarded = await there.execute({
      toolCallId: "1",
      name: "resolve",
      params: { action: "discard", reason: "not wanted" },
    });
    expect(discarded.isError).toBeUndefined();
    await here.pending.refresh();
    const reasons = heard.flatMap((event) =>
      event.type === "action-discarded" && event.record.id === id ? [event.reason] : [],
    );
    expect(reasons).toEqual([expect.stringMatching(/another process or Session/)]);
    await there.dispose();
    await here.dispose();
  });
});
