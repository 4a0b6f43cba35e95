import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteJournal, Session } from "../../src/index.js";

/**
 * Found by a bug hunt: one row of the durable store whose JSON column was damaged outside
 * Tooldock made Session.open throw a bare SyntaxError (the CLI: "internal error", exit 2), and
 * a file that is no SQLite database gave the driver's bare "file is not a database". Both are
 * E_PENDING_STORE now, naming the action or the file and what to do.
 */
type Database = { prepare(sql: string): { run(...values: unknown[]): unknown }; close(): void };
const require = createRequire(import.meta.url);
function driver(): (new (file: string) => Database) | undefined {
  try {
    return (require("node:sqlite") as { DatabaseSync: new (file: string) => Database }).DatabaseSync;
  } catch {
    try {
      return require("better-sqlite3") as new (
        file: string,
      ) => Database;
    } catch {
      return undefined;
    }
  }
}
const Driver = driver();

let folder = "";
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "tooldock-unreadable-row-")));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** Stages one durable action in a fresh session of `file` and returns its id. */
async function stageOne(file: string): Promise<string> {
  const session = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
  session.register({
    name: "stage",
    label: "Stage",
    description: "Stages a durable action",
    parameters: Type.Object({}),
    actions: { noop: { apply: async () => ({ content: [] }) } },
    async execute(
      _id: string,
      _params: unknown,
      _onUpdate: unknown,
      ctx: { pushPendingAction(a: object): void },
    ) {
      ctx.pushPendingAction({ label: "Damaged", handler: "noop", payload: { n: 1 } });
      return { content: [{ type: "text" as const, text: "staged" }] };
    },
  } as never);
  await session.execute({ toolCallId: "1", name: "stage", params: {} });
  const id = session.pending.list()[0]?.id as string;
  await session.dispose();
  return id;
}

describe.skipIf(Driver === undefined && process.env.CI !== "true")(
  "a durable store that cannot be read",
  () => {
    it("names the action whose row is damaged, as E_PENDING_STORE", async () => {
      const file = join(folder, "pending.db");
      const id = await stageOne(file);
      const database = new (Driver as new (file: string) => Database)(file);
      database.prepare("UPDATE tooldock_pending_actions SET payload = ? WHERE id = ?").run('{"n": trunc', id);
      database.close();
      const reopened = Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
      await expect(reopened).rejects.toMatchObject({ code: "E_PENDING_STORE" });
      await expect(reopened).rejects.toThrow(`pending action ${id} cannot be read: its payload is not JSON`);
    });

    // Found by a second bug hunt (damaged-or-newer-row): a form this version does not know was
    // read as a callback action of another process (then marked lost for good), an owner that is
    // no process gave "internal error" (TypeError), and a deeply nested payload a RangeError.
    it.each([
      [
        "a form a newer version wrote",
        "form",
        "'data-v2'",
        'its form "data-v2" is not one this version of Tooldock knows',
      ],
      ["an owner that is no process", "owner", "'null'", "its owner is not a process"],
    ])("names a row with %s, as E_PENDING_STORE, and leaves it", async (_case, column, value, message) => {
      const file = join(folder, "pending.db");
      const id = await stageOne(file);
      const database = new (Driver as new (file: string) => Database)(file);
      database.prepare(`UPDATE tooldock_pending_actions SET ${column} = ${value} WHERE id = ?`).run(id);
      database.close();
      const reopened = Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
      await expect(reopened).rejects.toMatchObject({ code: "E_PENDING_STORE" });
      await expect(reopened).rejects.toThrow(`pending action ${id} cannot be read: ${message}`);
      const after = new (Driver as new (file: string) => Database)(file) as unknown as {
        prepare(sql: string): { get(...values: unknown[]): { state: string } };
        close(): void;
      };
      expect(after.prepare("SELECT state FROM tooldock_pending_actions WHERE id = ?").get(id).state).toBe(
        "pending",
      );
      after.close();
    });

    it("reads a deeply nested payload", async () => {
      const file = join(folder, "pending.db");
      const id = await stageOne(file);
      const database = new (Driver as new (file: string) => Database)(file);
      const deep = `${"[".repeat(20_000)}1${"]".repeat(20_000)}`;
      database.prepare("UPDATE tooldock_pending_actions SET payload = ? WHERE id = ?").run(deep, id);
      database.close();
      const reopened = await Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
      expect(reopened.pending.list().map((record) => record.id)).toEqual([id]);
      await reopened.dispose();
    });

    it("names a file that is no SQLite database, as E_PENDING_STORE", () => {
      const file = join(folder, "garbage.db");
      writeFileSync(file, "this is no database, only text long enough to be read as a header", {
        mode: 0o600,
      });
      expect(() => openSqliteJournal(file)).toThrow(
        expect.objectContaining({
          code: "E_PENDING_STORE",
          message: expect.stringContaining(`${file} cannot be opened`),
        }),
      );
    });
  },
);
