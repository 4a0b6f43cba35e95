import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, type PendingActionJournal, Session } from "../../src/index.js";
import { journalWith } from "../journal-wrapper.js";
import { durableRenameTool } from "../tools.js";

/**
 * Found by a bug hunt: when the durable store failed to record an apply's outcome, the answer
 * said so only in the store's own text ("Applied: …"); a handler that answered with content of
 * its own (most do: "renamed 3 files") replaced that text, and the sentence with it. The model
 * and the user never learnt that the next process will find the action interrupted.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-store-failure-hidden-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The journal, with every move to `to` failing as a full disk would. */
function failingMoveTo(journal: PendingActionJournal, to: string): PendingActionJournal {
  return journalWith(journal, {
    move: (id, move) => {
      if (move.to === to) throw new Error("SQLITE_FULL: database or disk is full");
      return journal.move(id, move);
    },
  });
}

describe("an applied durable action whose outcome the store could not record", () => {
  it("keeps the handler's own content and adds what the store failed to record", async () => {
    const journal = openSqliteJournal(join(folder, "pending.db"));
    const session = await Session.open({ sessionId: "s1", journal: failingMoveTo(journal, "applied") });
    session.register(durableRenameTool(async () => undefined));
    await session.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const applied = await session.execute({
      toolCallId: "2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    const texts = applied.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
    expect(texts[0]).toBe("renamed");
    expect(texts.slice(1).join("\n")).toContain(
      "The durable store could not record this: SQLITE_FULL: database or disk is full",
    );
    await session.dispose();
  });
});
