import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";
import { durableRenameTool } from "../tools.js";

/**
 * Found by a bug hunt: with a durable store, an apply that timed out leaves its record
 * `applying` (only this process may take it again), and the answer tells the model to apply
 * again or "discard" it. But a discard moved only `pending` records: it answered that another
 * process had resolved the action (there was none) and dropped it from the stack, and the
 * host's next `refresh()` dropped it too, so the action could be neither discarded nor seen.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-timed-out-apply-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("a durable action whose apply timed out", () => {
  it("stays on the stack through a refresh, and a discard drops it", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const session = await Session.open({
      sessionId: "s1",
      journal: openSqliteJournal(join(folder, "pending.db")),
      resolveTimeoutMs: 200,
    });
    session.register(durableRenameTool(() => gate, true));
    await session.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const applied = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    expect(applied.isError).toBe(true);
    expect(session.pending.list().map((record) => record.label)).toEqual(["Rename A"]);
    await session.pending.refresh();
    expect(session.pending.list().map((record) => record.label)).toEqual(["Rename A"]);
    const discarded = await session.execute({
      toolCallId: "3",
      name: "resolve",
      params: { action: "discard", reason: "never mind" },
    });
    expect(discarded.isError).toBeUndefined();
    expect(JSON.stringify(discarded.content)).not.toContain("another process");
    expect(session.pending.list()).toEqual([]);
    release();
    await session.dispose();
  });
});
