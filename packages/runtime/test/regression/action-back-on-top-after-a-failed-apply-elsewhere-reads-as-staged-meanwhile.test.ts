import { describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";
import { deferred, textOf } from "../fake-context.js";
import { renameTool, resolve, stage } from "../rename-tool.js";
import { journalFilePerTest, openAsAnotherProcess } from "../shared-store.js";

/**
 * Found with the fix that puts a failed apply back on top in the journal: this process
 * applied "Rename A" and staged "Rename B" while it ran; another process opened the session
 * then (its stack: B), and A's apply failed here, back on top. The other process's resolve
 * answered that A "was staged by another process meanwhile": A was staged before B, and
 * nothing staged it again.
 */

const apply = (session: Session) => resolve(session, "apply");

const file = journalFilePerTest("tooldock-back-on-top-elsewhere-");

describe("an action whose apply failed in another process, back on top above the one here", () => {
  it("is not said to have been staged meanwhile, and the next resolve applies it", async () => {
    const started = deferred<void>();
    const release = deferred<void>();
    const here = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file()) });
    here.register(
      renameTool([], async () => {
        started.resolve();
        await release.promise;
        throw new Error("the disk is full");
      }),
    );
    await stage(here, "A");
    const applying = apply(here);
    await started.promise;
    await stage(here, "B");
    const there = new Session({ sessionId: "s1", pending: await openAsAnotherProcess(file(), "s1") });
    there.register(renameTool());
    expect(there.pending.list().map((record) => record.label)).toEqual(["Rename B"]);
    release.resolve();
    expect((await applying).isError).toBe(true);

    const refused = await apply(there);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^"Rename B" is no longer the newest pending action: "Rename A" \(id .+\) is on top now \(another process staged it meanwhile, or put it back on top when its apply failed there\); nothing was done\./,
    );
    expect(textOf(await apply(there))).toBe("renamed A");
    expect(textOf(await apply(there))).toBe("renamed B");
    await Promise.all([here.dispose(), there.dispose()]);
  });
});
