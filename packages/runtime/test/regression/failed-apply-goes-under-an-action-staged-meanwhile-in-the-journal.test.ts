import { afterEach, describe, expect, it, vi } from "vitest";
import { describePostgres } from "../../../../scripts/describe-postgres.js";
import {
  openPostgresJournal,
  openSqliteJournal,
  type PendingActionJournal,
  PendingActionStore,
  Session,
} from "../../src/index.js";
import { deferred, textOf } from "../fake-context.js";
import { renameTool as renameToolOf, resolve, stage } from "../rename-tool.js";
import { ANOTHER_PROCESS, journalFilePerTest } from "../shared-store.js";

/**
 * Found by a second read of the contract ("a failed apply goes back on top even if another
 * action was pushed meanwhile") against the journals: a resolve applied "Rename A", a tool
 * call staged "Rename B" while that apply ran, and the apply failed (or timed out). This
 * stack put A back on top, but the journal kept the order of staging, B newer. The next
 * resolve answered that B "was staged by another process meanwhile and is on top now;
 * nothing was done" (this process staged it), the one after applied B, not A, and another
 * process reading the journal saw B on top.
 */

const DEADLINE_MS = 1_000;

/**
 * `rename_preview` whose first apply of "Rename A" says it started, waits for `release`, then
 * throws; every other apply renames (noted in `applied`).
 */
function renameTool() {
  const started = deferred<void>();
  const release = deferred<void>();
  const applied: string[] = [];
  let appliesOfA = 0;
  const tool = renameToolOf(applied, async (tag) => {
    if (tag !== "A" || ++appliesOfA !== 1) return;
    started.resolve();
    await release.promise;
    throw new Error("the disk is full");
  });
  return { tool, started: started.promise, release: () => release.resolve(), applied };
}

const apply = (session: Session) => resolve(session, "apply");

/**
 * The session of `sessionId` in `journal` after "Rename A" was staged, its apply started, and
 * "Rename B" staged while it ran; `settle` ends that apply (it fails, or its deadline passes).
 */
async function stagedWhileApplying(
  journal: PendingActionJournal,
  sessionId: string,
  settle: (release: () => void) => Promise<void>,
) {
  const rename = renameTool();
  const session = await Session.open({ sessionId, journal, resolveTimeoutMs: DEADLINE_MS });
  session.register(rename.tool);
  expect(textOf(await stage(session, "A"))).toBe("staged");
  const applying = apply(session);
  await rename.started;
  expect(textOf(await stage(session, "B"))).toBe("staged");
  await settle(rename.release);
  const answer = await applying;
  expect(answer.isError).toBe(true);
  expect(session.pending.peek()?.label).toBe("Rename A");
  return { session, rename, answer };
}

/** The two cases on a journal: `open` opens one more on the same store for each caller. */
function failedApplyCases(open: () => Promise<PendingActionJournal>, nextSession: () => string) {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a failed apply is on top in the journal too: the next resolve applies it, and another process sees it on top", async () => {
    const sessionId = nextSession();
    const journal = await open();
    const { session, rename, answer } = await stagedWhileApplying(journal, sessionId, async (release) =>
      release(),
    );
    expect(textOf(answer)).toMatch(
      /^Apply failed for "Rename A": the disk is full\. The action is still pending/,
    );

    const elsewhere = await open();
    const there = await PendingActionStore.open(elsewhere, sessionId, { process: ANOTHER_PROCESS });
    const seenThere = there.list().map((record) => record.label);

    const next = await apply(session);
    expect(textOf(next)).toBe("renamed A");
    expect(next.isError).toBeUndefined();
    expect(seenThere).toEqual(["Rename A", "Rename B"]);
    expect(textOf(await apply(session))).toBe("renamed B");
    expect(rename.applied).toEqual(["A", "B"]);
    await session.dispose();
    await Promise.all([journal.close(), elsewhere.close()]);
  });

  it("a timed-out apply is on top in the journal too: the next resolve applies it again", async () => {
    const sessionId = nextSession();
    const journal = await open();
    // Only the deadline's timer is driven by hand: it passes once "Rename B" is staged.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { session, rename, answer } = await stagedWhileApplying(journal, sessionId, async () => {
      await vi.advanceTimersByTimeAsync(DEADLINE_MS);
    });
    expect(textOf(answer)).toMatch(/^Apply of "Rename A" did not finish within .* and was given up/);
    // Another process does not offer it (this one may still be applying it), but the store's
    // order, newest last, has it above "Rename B".
    const order = (await journal.open(sessionId)).map((record) => record.label);

    const next = await apply(session);
    expect(textOf(next)).toBe("renamed A");
    expect(next.isError).toBeUndefined();
    expect(order).toEqual(["Rename B", "Rename A"]);
    expect(textOf(await apply(session))).toBe("renamed B");
    expect(rename.applied).toEqual(["A", "B"]);
    rename.release();
    await session.dispose();
    await journal.close();
  });
}

describe("an action staged while the apply below it ran, in SQLite", () => {
  const file = journalFilePerTest("tooldock-failed-apply-on-top-");
  failedApplyCases(
    async () => openSqliteJournal(file()),
    () => "s1",
  );
});

let sessions = 0;
describePostgres("an action staged while the apply below it ran, in PostgreSQL", {}, (cluster) => {
  failedApplyCases(
    () => openPostgresJournal(cluster().url),
    () => `failed-apply-on-top-${++sessions}`,
  );
});
