// Found when a helper's run of the durable tests failed once under heavy load, in "the
// database server restarts while the host idles": the first resolve after the server was back
// failed with E_PENDING_STORE, "the database system is starting up". A journal whose liveness
// lock was lost (the server restarted) takes it again every second; a call that needs the lock
// (a stage, a claim) joined the attempt already under way, begun while the server was still
// starting, and failed with it, though the server was ready by then. A call that joins an
// attempt that fails now makes one fresh attempt of its own.

import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import pg from "pg";
import { expect, it } from "vitest";
import { describePostgres } from "../../../../scripts/describe-postgres.js";
import { openPostgresJournal, PostgresJournal, type PostgresQueryable, Session } from "../../src/index.js";
import { textOf } from "../fake-context.js";

const NOTE: CustomTool = {
  name: "stage_note",
  label: "Stage a note",
  description: "Stages a note.",
  parameters: Type.Object({ tag: Type.String() }),
  actions: { note: { apply: async () => textResult("noted") } },
  async execute(_id, params, _onUpdate, ctx) {
    const { tag } = params as { tag: string };
    ctx.pushPendingAction({ label: `Note ${tag}`, handler: "note", payload: { tag } });
    return textResult(`staged ${tag}`);
  },
};

type LivenessClient = ConstructorParameters<typeof PostgresJournal>[1] extends
  | (() => Promise<infer C>)
  | undefined
  ? C
  : never;

describePostgres("a stage after the PostgreSQL server restarted", {}, (cluster) => {
  it("stage-joins-a-lock-attempt-begun-while-postgres-started: the stage takes the lock afresh and is kept", async () => {
    const url = cluster().url;
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => {});
    const clients: pg.Client[] = [];
    const real = async () => {
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => {});
      await client.connect();
      clients.push(client);
      return client as unknown as LivenessClient;
    };
    // The second attempt is the one under way while the server starts: it fails when the test says.
    let failSecond: (error: Error) => void = () => {};
    let secondBegun: () => void = () => {};
    const begun = new Promise<void>((resolve) => {
      secondBegun = resolve;
    });
    let attempts = 0;
    const connect = () => {
      attempts += 1;
      if (attempts !== 2) return real();
      secondBegun();
      return new Promise<LivenessClient>((_resolve, reject) => {
        failSecond = reject;
      });
    };
    await openPostgresJournal(pool as unknown as PostgresQueryable); // the tables
    const journal = new PostgresJournal(pool as unknown as PostgresQueryable, connect);
    const session = await Session.open({ sessionId: "lock-attempt", journal, pendingPolicy: "allow" });
    session.register(NOTE);
    try {
      const first = await session.execute({ toolCallId: "a", name: "stage_note", params: { tag: "a" } });
      expect(first.isError).not.toBe(true);
      // The server ends the lock's connection (a restart): the journal takes the lock again.
      await clients[0]?.end();
      await begun;
      const staging = session.execute({ toolCallId: "b", name: "stage_note", params: { tag: "b" } });
      failSecond(new Error("the database system is starting up"));
      const second = await staging;
      expect(textOf(second)).toBe("staged b");
      expect(second.isError).not.toBe(true);
      expect(session.pending.list().map(({ label }) => label)).toEqual(["Note b", "Note a"]); // top first
      expect(attempts).toBe(3);
    } finally {
      await session.dispose();
      await journal.close();
      for (const client of clients) await client.end().catch(() => {});
      await pool.end().catch(() => {}); // the journal ended it
    }
  });
});
