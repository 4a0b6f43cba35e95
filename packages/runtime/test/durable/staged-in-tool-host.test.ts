import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import pg from "pg";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { describePostgres } from "../../../../scripts/describe-postgres.js";
import {
  openPostgresJournal,
  openSqliteJournal,
  type PendingActionJournal,
  type PendingActionRecord,
  Session,
} from "../../src/index.js";
import { RUNS_IN_TOOL_HOST, STAGED_IN_TOOL_HOST } from "../../src/internal.js";

/**
 * A durable action the loader stages for a tool in a tool host carries `STAGED_IN_TOOL_HOST`:
 * its record says `isolated: true`, and both durable stores keep it, so a later process (such
 * as `tooldock pending apply`) knows to run its handler in a tool host. Stores made by an
 * earlier version get the column, and their records read back without the mark.
 */
function stagingTool(): CustomTool {
  return {
    name: "stage_write",
    label: "Stage a write",
    description: "Stages a durable write.",
    parameters: Type.Object({ isolated: Type.Boolean() }),
    actions: { write: { apply: async () => textResult("written") } },
    async execute(_id, params, _onUpdate, ctx) {
      const action = { label: "Write a file", handler: "write", payload: { file: "a.txt" } };
      if ((params as { isolated: boolean }).isolated)
        Object.defineProperty(action, STAGED_IN_TOOL_HOST, { value: true });
      ctx.pushPendingAction(action);
      return textResult("staged");
    },
  };
}

async function stageBoth(journal: PendingActionJournal, sessionId: string): Promise<void> {
  // Two actions on one stack: the second call runs while the first waits.
  const session = await Session.open({ sessionId, journal, pendingPolicy: "allow" });
  session.register(stagingTool());
  for (const isolated of [false, true])
    await session.execute({ toolCallId: `stage-${isolated}`, name: "stage_write", params: { isolated } });
  expect(session.pending.list().map((record) => record.isolated)).toEqual([true, undefined]);
  await session.dispose();
}

async function readBack(journal: PendingActionJournal, sessionId: string): Promise<PendingActionRecord[]> {
  const session = await Session.open({ sessionId, journal });
  const records = session.pending.list();
  await session.dispose();
  return records;
}

let folder = "";
afterEach(async () => {
  if (folder !== "") await rm(folder, { recursive: true, force: true });
  folder = "";
});

describe("a durable action staged in a tool host", () => {
  it("is marked isolated on its record, and the SQLite journal keeps the mark for the next process", async () => {
    folder = await mkdtemp(join(tmpdir(), "tooldock-isolated-mark-"));
    const file = join(folder, "pending.db");
    const writer = openSqliteJournal(file);
    await stageBoth(writer, "s1");
    writer.close();
    const reader = openSqliteJournal(file);
    const records = await readBack(reader, "s1");
    reader.close();
    expect(records.map(({ label, isolated }) => ({ label, isolated }))).toEqual([
      { label: "Write a file", isolated: true },
      { label: "Write a file", isolated: undefined },
    ]);
  });

  it("an SQLite store made before the mark existed gets its column; its records are not marked", async () => {
    folder = await mkdtemp(join(tmpdir(), "tooldock-isolated-mark-"));
    const file = join(folder, "pending.db");
    const writer = openSqliteJournal(file);
    await stageBoth(writer, "s1");
    writer.close();
    // The table as an earlier version made it: no isolated column. Through the driver the store
    // itself uses: node:sqlite where Node has it (22.13+), else better-sqlite3, built for Node 20.
    type Database = new (path: string) => { exec(sql: string): void; close(): void };
    const require = createRequire(import.meta.url);
    let Database: Database;
    try {
      Database = (require("node:sqlite") as { DatabaseSync: Database }).DatabaseSync;
    } catch {
      Database = require("better-sqlite3") as Database;
    }
    const db = new Database(file);
    db.exec("ALTER TABLE tooldock_pending_actions DROP COLUMN isolated");
    db.close();
    const reader = openSqliteJournal(file);
    expect((await readBack(reader, "s1")).map((record) => record.isolated)).toEqual([undefined, undefined]);
    await stageBoth(reader, "s2");
    reader.close();
    const again = openSqliteJournal(file);
    expect((await readBack(again, "s2")).map((record) => record.isolated)).toEqual([true, undefined]);
    again.close();
  });
});

describe("an action staged in a tool host, resolved by a handler of this process", () => {
  /** A session of a new SQLite store with one action staged in a tool host on it; `applied` counts the applies. */
  async function stagedSession(
    handlerInToolHost: boolean,
    options: { isolatedActionsInProcess?: "run" } = {},
  ) {
    const own = await mkdtemp(join(tmpdir(), "tooldock-isolated-refused-"));
    onTestFinished(() => rm(own, { recursive: true, force: true }));
    const journal = openSqliteJournal(join(own, "pending.db"));
    const session = await Session.open({ sessionId: "s1", journal, ...options });
    const tool = stagingTool();
    const applied: unknown[] = [];
    const write = {
      apply: async (payload: unknown) => {
        applied.push(payload);
        return textResult("written");
      },
      reject: async (payload: unknown) => {
        applied.push(payload);
        return undefined;
      },
    };
    if (handlerInToolHost) Object.defineProperty(write, RUNS_IN_TOOL_HOST, { value: true });
    tool.actions = { write };
    session.register(tool);
    await session.execute({ toolCallId: "stage", name: "stage_write", params: { isolated: true } });
    const close = async () => {
      await session.dispose();
      journal.close();
    };
    return { session, journal, applied, close };
  }
  const resolve = (session: Session, action: "apply" | "discard") =>
    session.execute({ toolCallId: action, name: "resolve", params: { action, reason: "ok" } });

  it("is refused (apply, discard and clear): nothing runs, it stays pending on the stack and in the store", async () => {
    const { session, journal, applied, close } = await stagedSession(false);
    for (const action of ["apply", "discard"] as const) {
      const refused = await resolve(session, action);
      expect(refused.isError).toBe(true);
      expect(refused.content).toEqual([
        {
          type: "text",
          text: expect.stringContaining(
            `Cannot ${action} "Write a file": it was staged by a tool in a tool host`,
          ),
        },
      ]);
      expect(refused.details).toMatchObject({ action, refusedInProcess: true });
    }
    await session.pending.clear("cleared");
    expect(applied).toEqual([]);
    expect(session.pending.list().map((record) => record.label)).toEqual(["Write a file"]);
    expect((await journal.open("s1")).map((record) => record.state)).toEqual(["pending"]);
    await close();
  });

  it('is applied by a handler marked as running in a tool host, or by any with isolatedActionsInProcess: "run"', async () => {
    for (const staged of [
      await stagedSession(true),
      await stagedSession(false, { isolatedActionsInProcess: "run" }),
    ]) {
      expect((await resolve(staged.session, "apply")).isError).toBeUndefined();
      expect(staged.applied).toEqual([{ file: "a.txt" }]);
      expect(staged.session.pending.size).toBe(0);
      await staged.close();
    }
  });
});

describePostgres("a durable action staged in a tool host, in PostgreSQL", {}, (cluster) => {
  it("keeps the mark, and a table made before it gets the column", async () => {
    const pool = new pg.Pool({ connectionString: cluster().url, max: 2 });
    pool.on("error", () => {});
    const journal = await openPostgresJournal(cluster().url);
    await stageBoth(journal, "pg-isolated-1");
    expect((await readBack(journal, "pg-isolated-1")).map((record) => record.isolated)).toEqual([
      true,
      undefined,
    ]);
    await journal.close();
    await pool.query("ALTER TABLE tooldock_pending_actions DROP COLUMN isolated");
    const older = await openPostgresJournal(cluster().url);
    expect((await readBack(older, "pg-isolated-1")).map((record) => record.isolated)).toEqual([
      undefined,
      undefined,
    ]);
    await stageBoth(older, "pg-isolated-2");
    expect((await readBack(older, "pg-isolated-2")).map((record) => record.isolated)).toEqual([
      true,
      undefined,
    ]);
    await older.close();
    await pool.end();
  });
});
