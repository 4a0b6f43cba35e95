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

describe.skipIf(Driver === undefined && process.env.CI !== "true")(
  "a durable store that cannot be read",
  () => {
    it("names the action whose row is damaged, as E_PENDING_STORE", async () => {
      const file = join(folder, "pending.db");
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
      const id = session.pending.list()[0]?.id;
      await session.dispose();
      const database = new (Driver as new (file: string) => Database)(file);
      database.prepare("UPDATE tooldock_pending_actions SET payload = ? WHERE id = ?").run('{"n": trunc', id);
      database.close();
      const reopened = Session.open({ sessionId: "s1", journal: openSqliteJournal(file) });
      await expect(reopened).rejects.toMatchObject({ code: "E_PENDING_STORE" });
      await expect(reopened).rejects.toThrow(`pending action ${id} cannot be read: its payload is not JSON`);
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
