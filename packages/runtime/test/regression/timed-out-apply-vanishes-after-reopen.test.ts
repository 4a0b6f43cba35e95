import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";
import { durableRenameTool } from "../tools.js";

/**
 * Found by a bug hunt: a durable apply timed out ("still pending"), the host disposed the
 * session (the conversation closed) and opened it again in the same process once the apply had
 * ended. Nothing was pending any more, `discard` found nothing, and another process's
 * `tooldock pending list` showed nothing either: the record stayed `applying` for this
 * process, which no apply ran any more, for as long as the process lived.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-timed-out-reopen-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("a durable action whose apply timed out, in a session opened again", () => {
  it("is interrupted once that apply has ended, and can be discarded", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ended: () => void = () => {};
    const applyEnded = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const tool = durableRenameTool(async () => {
      await gate;
      ended();
    });
    const file = join(folder, "pending.db");
    const first = await Session.open({
      sessionId: "s1",
      journal: openSqliteJournal(file),
      resolveTimeoutMs: 50,
    });
    first.register(tool);
    await first.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const timedOut = await first.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(JSON.stringify(timedOut.content)).toContain("still pending");
    await first.dispose();

    // While that apply still runs here, a session opened again does not offer it.
    const during = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    during.register(tool);
    expect(during.pending.list()).toEqual([]);
    await during.dispose();

    release();
    await applyEnded;
    await new Promise((resolve) => setImmediate(resolve)); // its settlement is noted a turn later
    const again = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
    again.register(tool);
    expect(again.pending.list().map((record) => record.label)).toEqual(["Rename A"]);
    const discarded = await again.execute({
      toolCallId: "3",
      name: "resolve",
      params: { action: "discard", reason: "never mind" },
    });
    expect(discarded.isError).toBeUndefined();
    expect(again.pending.list()).toEqual([]);
    const history = await again.pending.history();
    expect(history.map((step) => step.kind)).toEqual(["staged", "interrupted", "discarded"]);
    await again.dispose();
  });
});
