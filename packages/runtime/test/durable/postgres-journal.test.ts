import pg from "pg";
import { expect, it } from "vitest";
import { describePostgres } from "../../../../scripts/describe-postgres.js";
import {
  openPostgresJournal,
  type PendingActionEvent,
  type PendingActionJournal,
  type PostgresQueryable,
  Session,
} from "../../src/index.js";
import { textOf } from "../fake-context.js";
import { renameTool, resolve, stage } from "../rename-tool.js";

// The PostgreSQL journal in this process, against a real server started here (Debian's
// `postgresql`; skipped with the reason outside CI when it is missing): how many round
// trips each transition costs, and what a host sees when the server goes away.

/** A pool that counts the statements sent: each is one round trip to the server. */
function countingPool(url: string): { pool: pg.Pool; queries: string[] } {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {});
  const queries: string[] = [];
  const query = pool.query.bind(pool) as PostgresQueryable["query"];
  (pool as unknown as PostgresQueryable).query = (config) => {
    queries.push(config.text.trim().split(/\s+/).slice(0, 3).join(" "));
    return query(config);
  };
  return { pool, queries };
}

let sessions = 0;
const nextSession = () => `pg-${++sessions}`;

describePostgres("the PostgreSQL journal", {}, (cluster) => {
  it("adds one round trip per transition: a push is one statement, an apply two, a discard one", async () => {
    const { pool, queries } = countingPool(cluster().url);
    const journal = await openPostgresJournal(pool as unknown as PostgresQueryable);
    const applied: string[] = [];
    const session = await Session.open({ sessionId: nextSession(), journal });
    session.register(renameTool(applied));
    queries.length = 0; // the schema and the session's first read

    await stage(session, "a");
    expect(queries).toEqual(["WITH added AS"]);
    queries.length = 0;
    expect(textOf(await resolve(session, "apply"))).toBe("renamed a");
    expect(queries).toEqual(["WITH moved AS", "WITH moved AS"]); // applying, applied
    queries.length = 0;

    await stage(session, "b");
    queries.length = 0;
    expect(textOf(await resolve(session, "discard", "not now"))).toContain("Discarded: Rename b");
    expect(queries).toEqual(["WITH moved AS"]);
    expect(applied).toEqual(["a"]);
    await session.dispose();
    await journal.close();
    await pool.end();
  });

  it("a newer action another process staged meanwhile is never resolved in place of the one on top here: the resolve says so, the next one resolves it", async () => {
    const sessionId = nextSession();
    const { pool, queries } = countingPool(cluster().url);
    const journal = await openPostgresJournal(pool as unknown as PostgresQueryable);
    const applied: string[] = [];
    const here = await Session.open({ sessionId, journal });
    here.register(renameTool(applied));
    const elsewhere = await openPostgresJournal(cluster().url);
    const other = await Session.open({ sessionId, journal: elsewhere });
    other.register(renameTool(applied));

    expect(textOf(await stage(here, "mine"))).toBe("staged");
    expect(textOf(await stage(other, "theirs"))).toBe("staged"); // its stack did not see "mine"
    queries.length = 0;
    const refused = await resolve(here, "apply");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^"Rename mine" is no longer the newest pending action: "Rename theirs" \(id .+\) is on top now \(another process staged it meanwhile, or put it back on top when its apply failed there\); nothing was done/,
    );
    // The claim of "mine" fails (a newer action is open), then one read of the stack.
    expect(queries).toEqual(["WITH moved AS", "SELECT id, session_id,"]);
    expect(textOf(await resolve(here, "apply"))).toBe("renamed theirs");
    expect(textOf(await resolve(here, "apply"))).toBe("renamed mine");
    expect(applied).toEqual(["theirs", "mine"]);
    await Promise.all([here.dispose(), other.dispose()]);
    await Promise.all([journal.close(), elsewhere.close()]);
    await pool.end();
  });

  it("a second apply of an action another process applied meanwhile never applies the one below it", async () => {
    const sessionId = nextSession();
    const applied: string[] = [];
    const [one, two] = await Promise.all([
      openPostgresJournal(cluster().url),
      openPostgresJournal(cluster().url),
    ]);
    const here = await Session.open({ sessionId, journal: one, pendingPolicy: "allow" });
    here.register(renameTool(applied));
    await stage(here, "older");
    await stage(here, "newer");
    const other = await Session.open({ sessionId, journal: two, pendingPolicy: "allow" });
    other.register(renameTool(applied));
    // The user's "Apply" reaches both processes (a double click behind a load balancer).
    expect(textOf(await resolve(here, "apply"))).toBe("renamed newer");
    const second = await resolve(other, "apply");
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('"Rename newer" was resolved by another process meanwhile');
    expect(applied).toEqual(["newer"]);
    expect(other.pending.list().map((record) => record.label)).toEqual(["Rename older"]);
    await Promise.all([here.dispose(), other.dispose()]);
    await Promise.all([one.close(), two.close()]);
  });

  it("pop() right after push() never brings the action back once the store has both", async () => {
    const journal = await openPostgresJournal(cluster().url);
    const sessionId = nextSession();
    const session = await Session.open({ sessionId, journal });
    session.register(renameTool([]));
    for (const tag of ["a", "b", "c"]) {
      session.pending.push(
        { label: `Rename ${tag}`, handler: "rename", payload: { tag } },
        { sourceToolName: "rename_preview" },
      );
      session.pending.pop();
    }
    await session.pending.flush();
    const reopened = await Session.open({ sessionId, journal });
    expect(reopened.pending.list()).toEqual([]);
    const steps = new Map<string, string[]>();
    for (const step of await reopened.pending.history())
      steps.set(step.actionId, [...(steps.get(step.actionId) ?? []), step.kind]);
    expect([...steps.values()]).toEqual([
      ["staged", "discarded"],
      ["staged", "discarded"],
      ["staged", "discarded"],
    ]);
    await journal.close();
  });

  it("refresh() while a resolve claims the top action does not bring it back", async () => {
    const real = await openPostgresJournal(cluster().url);
    let reached: () => void = () => {};
    const claiming = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The real journal, with the resolve's claim held until the read below has run.
    const journal: PendingActionJournal = {
      open: (sessionId) => real.open(sessionId),
      stage: (record, process) => real.stage(record, process),
      history: (filter) => real.history(filter),
      close: () => real.close(),
      async move(id, move) {
        if (move.to === "applying") {
          reached();
          await gate;
        }
        return real.move(id, move);
      },
    };
    const session = await Session.open({ sessionId: nextSession(), journal });
    session.register(renameTool([]));
    await stage(session, "claimed");
    const resolving = resolve(session, "apply");
    await claiming;
    await session.pending.refresh(); // reads the record while still pending in the store
    release();
    expect(textOf(await resolving)).toBe("renamed claimed");
    expect(session.pending.list()).toEqual([]);
    await session.dispose();
    await real.close();
  });

  it("the database server restarts while the host idles: the host lives on, a resolve says the store failed and keeps the action, and works once the server is back", async () => {
    const c = cluster();
    const journal = await openPostgresJournal(c.url);
    const applied: string[] = [];
    const session = await Session.open({ sessionId: nextSession(), journal });
    session.register(renameTool(applied));
    await stage(session, "kept");

    await c.stop(); // the pool's idle connection is ended by the server: an `error` event
    try {
      const down = await resolve(session, "apply");
      expect(down.isError).toBe(true);
      expect(textOf(down)).toContain("E_PENDING_STORE: the durable store failed before");
      expect(textOf(down)).toContain("Nothing was run; the action is still pending");
      expect(session.pending.list().map((record) => record.label)).toEqual(["Rename kept"]);
    } finally {
      await c.start();
    }
    expect(textOf(await resolve(session, "apply"))).toBe("renamed kept");
    expect(applied).toEqual(["kept"]);
    await session.dispose();
    await journal.close();
  });

  it("an action the store cannot keep is not staged: the call says so, and nothing is left pending", async () => {
    const c = cluster();
    const journal = await openPostgresJournal(c.url);
    const session = await Session.open({ sessionId: nextSession(), journal });
    session.register(renameTool([]));
    const events: PendingActionEvent[] = [];
    session.pending.subscribe((event) => events.push(event));

    await c.stop();
    try {
      const result = await stage(session, "lost");
      expect(result.isError).toBe(true);
      expect(result.content[0]).toEqual({ type: "text", text: "staged" }); // the tool's own answer first
      expect(textOf(result)).toMatch(
        /E_PENDING_STORE: The durable store could not keep the pending action "Rename lost" \(.+\); it was not staged, and nothing will change/,
      );
      expect(session.pending.hasPending).toBe(false);
      expect(events.map((event) => event.type)).toEqual(["action-pending", "action-discarded"]);
    } finally {
      await c.start();
    }
    await session.dispose();
    await journal.close();
  });

  // Found by a bug hunt (own-pool-server-seen-dead): a server on a pool of its own takes no
  // liveness lock, and a process with a journal from a connection string (tooldock pending)
  // read the missing lock as an ended process: its callback actions were reported lost.
  it("takes a process that never held the liveness lock for running, and one that let it go for ended", async () => {
    const reader = await openPostgresJournal(cluster().url);
    const writer = await openPostgresJournal(cluster().url);
    const ownPool = { host: "web-1", pid: 4242, token: `own-pool-${nextSession()}` };
    const locked = { host: "web-2", pid: 4343, token: `locked-${nextSession()}` };
    const sessionId = nextSession();
    await writer.stage(
      {
        id: `${sessionId}-a`,
        sessionId,
        state: "pending",
        label: "Staged by a locked process",
        sourceToolName: "t",
        details: undefined,
        createdAt: Date.now(),
        form: "closure",
        owner: locked,
      },
      locked,
    );
    expect(await reader.processAlive?.(ownPool)).toBeUndefined(); // cannot tell: not ended
    expect(await reader.processAlive?.(locked)).toBe(true);
    await writer.close(); // its lock goes with its connection
    expect(await reader.processAlive?.(locked)).toBe(false);
    expect(await reader.processAlive?.(ownPool)).toBeUndefined();
    await reader.close();
  });

  it("a connection string that reaches no server rejects with E_PENDING_STORE", async () => {
    const url = `postgresql://tooldock@localhost/postgres?host=${encodeURIComponent("/nonexistent-tooldock-socket")}`;
    await expect(openPostgresJournal(url)).rejects.toMatchObject({
      code: "E_PENDING_STORE",
      message: expect.stringContaining("The pending-action database could not be opened"),
    });
  });
});
