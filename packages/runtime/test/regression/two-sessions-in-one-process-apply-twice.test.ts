import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";
import { durableRenameTool } from "../tools.js";

/**
 * Found by a bug hunt: two Session objects of one process that opened the same durable
 * session (a server that opens the session per request, a double-clicked "Apply") both
 * applied its action: a record `applying` in this process may be claimed again by this
 * process (to retry after a timed-out apply), and every store of the process had the same
 * identity. Now an apply still running in one store cannot be claimed by another.
 */
let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-two-sessions-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("two sessions of one process on one durable session", () => {
  it("apply its action once: the second resolve finds it taken", async () => {
    let applied = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const applying = new Promise<void>((resolve) => {
      started = resolve;
    });
    const tool = durableRenameTool(async () => {
      started();
      await gate;
      applied += 1;
    });
    const file = join(folder, "pending.db");
    const open = async () => {
      const session = await Session.open({ sessionId: "chat-42", journal: openSqliteJournal(file) });
      session.register(tool);
      return session;
    };
    const first = await open();
    await first.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const second = await open();
    expect(second.pending.list().map((record) => record.label)).toEqual(["Rename A"]);
    const resolve = (session: Session, id: string) =>
      session.execute({ toolCallId: id, name: "resolve", params: { action: "apply", reason: "go" } });
    const firstResolve = resolve(first, "r1");
    await applying;
    const secondResult = await resolve(second, "r2");
    release();
    const firstResult = await firstResolve;
    expect(firstResult.content).toEqual([{ type: "text", text: "renamed" }]);
    expect(secondResult.isError).toBe(true);
    expect(secondResult.content[0]).toMatchObject({ text: expect.stringContaining("nothing was done here") });
    expect(applied).toBe(1);
    await first.dispose();
    await second.dispose();
  });

  // Found by the second read: the registry held one entry per record, so a retry of a
  // timed-out apply, then the first apply's late end, cleared it while the retry still ran.
  it("apply its action once when one session retries a timed-out apply", async () => {
    let applied = 0;
    const gates: Array<() => void> = [];
    const tool = durableRenameTool(async () => {
      await new Promise<void>((resolve) => gates.push(resolve));
      applied += 1;
    });
    const file = join(folder, "pending.db");
    const open = async () => {
      const session = await Session.open({
        sessionId: "chat-7",
        journal: openSqliteJournal(file),
        resolveTimeoutMs: 100,
      });
      session.register(tool);
      return session;
    };
    const first = await open();
    await first.execute({ toolCallId: "1", name: "rename_preview", params: {} });
    const second = await open();
    const apply = (session: Session, id: string) =>
      session.execute({ toolCallId: id, name: "resolve", params: { action: "apply", reason: "go" } });
    expect((await apply(first, "r1")).isError).toBe(true); // timed out: its apply still runs
    expect((await apply(first, "r2")).isError).toBe(true); // the retry, timed out too
    expect(gates).toHaveLength(2);
    gates[0]?.(); // the first apply ends late; the retry still runs
    await new Promise((resolve) => setImmediate(resolve));
    const other = await apply(second, "r3");
    expect(other.isError).toBe(true);
    expect(gates).toHaveLength(2); // the other session ran no apply
    gates[1]?.();
    expect(applied).toBeLessThanOrEqual(2);
    await first.dispose();
    await second.dispose();
  });
});
