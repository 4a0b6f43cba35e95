import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { postgresForTests, startPostgresCluster } from "../../../../scripts/postgres-cluster.mjs";
import { runProcess, startLineProcess } from "../../../../scripts/run-process.mjs";
import { LIVENESS_LOCK } from "../../src/pending/journal/postgres-journal.js";

/**
 * Durable pending actions in real stores, across real processes (issue 28): each step runs
 * `scenario.mjs` in a process of its own, so a restart is a new process and a crash is a
 * SIGKILL. SQLite: a file per test, under the suite's Node: `better-sqlite3` on Node 20
 * (`node:sqlite` is run by the chat server's and the CLI's tests, under Node 24). PostgreSQL: a private server started here (Debian's `postgresql`; skipped with the
 * reason outside CI when it is not installed), a session per test, under the suite's Node.
 */
const here = dirname(fileURLToPath(import.meta.url));
const scenario = join(here, "scenario.mjs");
const postgres = postgresForTests();

/**
 * Why the SQLite cases cannot run under this Node, or `undefined`: a Node without `node:sqlite`
 * needs `better-sqlite3`, which the repository installs as an optional dependency (it builds
 * from source where no prebuilt binary can be downloaded). Under CI the cases run regardless,
 * and fail with the journal's own message.
 */
function sqliteSkip(): string | undefined {
  if (process.versions.sqlite !== undefined || process.env.CI === "true") return undefined;
  try {
    createRequire(import.meta.url)("better-sqlite3");
    return undefined;
  } catch (error) {
    return `Node ${process.version} has no node:sqlite and better-sqlite3 did not load (${(error as Error).message.split("\n")[0]})`;
  }
}

interface Store {
  /** The Node that runs the scenario. */
  node: string;
  /** The store argument of test number `count`. */
  store(count: number): string;
  close(): Promise<void>;
}

const stores: Array<{ name: string; skip: string | undefined; open: (scratch: string) => Promise<Store> }> = [
  {
    name: "SQLite",
    skip: sqliteSkip(),
    async open(scratch) {
      return {
        node: process.execPath,
        store: (count) => join(scratch, `pending-${count}.db`),
        async close() {},
      };
    },
  },
  {
    name: "PostgreSQL",
    skip: postgres.run ? undefined : postgres.reason,
    async open() {
      const cluster = await startPostgresCluster();
      return { node: process.execPath, store: () => cluster.url, close: () => cluster.destroy() };
    },
  },
];

for (const { name, skip, open } of stores) {
  const title = `durable pending actions in ${name}${skip === undefined ? "" : ` (skipped: ${skip})`}`;
  describe.skipIf(skip !== undefined)(title, { timeout: 120_000 }, () => {
    let node = "";
    let scratch = "";
    let opened: Store | undefined;
    let db = "";
    let log = "";
    let session = "";

    beforeAll(async () => {
      scratch = await realpath(await mkdtemp(join(tmpdir(), "tooldock-durable-")));
      opened = await open(scratch);
      node = opened.node;
    }, 600_000);
    afterAll(async () => {
      await opened?.close();
      if (scratch !== "") await rm(scratch, { recursive: true, force: true });
    });
    let count = 0;
    beforeEach(() => {
      count += 1;
      db = (opened as Store).store(count);
      log = join(scratch, `applied-${count}.log`);
      session = `chat-${count}`;
    });

    /** One step in a process of its own: its JSON lines. */
    async function step(...args: string[]): Promise<unknown[]> {
      const run = await runProcess(node, [scenario, db, session, ...args]);
      if (run.code !== 0)
        throw new Error(`scenario ${args.join(" ")} exited with ${run.code}:\n${run.stderr}`);
      return run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown);
    }

    async function applied(): Promise<string[]> {
      const text = await readFile(log, "utf8").catch(() => "");
      return text.split("\n").filter(Boolean);
    }

    /** A step left running, read line by line; killed when the test ends. */
    function started(...args: string[]): ReturnType<typeof startLineProcess> {
      const child = startLineProcess(node, [scenario, db, session, ...args]);
      onTestFinished(child.kill);
      return child;
    }

    /** `work` on a connection of its own to `url`. */
    async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    }

    /** Resolves once the server has dropped the liveness lock of `token` (the event itself: a lock wait). */
    function lockReleased(url: string, token: string): Promise<void> {
      return withClient(url, async (client) => {
        // Exclusive: granted once no process holds the shared liveness lock any more.
        await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [LIVENESS_LOCK, token]);
        await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LIVENESS_LOCK, token]);
      });
    }

    /** Whether a process holds the liveness lock of `token` (an exclusive try fails while it does). */
    function lockHeld(url: string, token: string): Promise<boolean> {
      return withClient(url, async (client) => {
        const { rows } = await client.query("SELECT pg_try_advisory_lock($1, hashtext($2)) AS got", [
          LIVENESS_LOCK,
          token,
        ]);
        const got = (rows[0] as { got: boolean }).got;
        if (got) await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LIVENESS_LOCK, token]);
        return !got;
      });
    }

    it("survive a restart: the next process applies the durable one, and reports the callback one lost with its process", async () => {
      expect(await step("stage", log, "t1", "closure")).toEqual([
        { isError: false, pending: ["Callback action", "Rename t1"] },
      ]);
      const [listed] = (await step("list")) as [
        Array<{ label: string; handler?: string; stagedBy?: unknown }>,
      ];
      expect(listed.map(({ label, handler }) => [label, handler])).toEqual([
        ["Callback action", undefined],
        ["Rename t1", "rename"],
      ]);
      expect(listed[0]?.stagedBy).toMatchObject({ pid: expect.any(Number) });

      const [lost] = (await step("resolve", "apply", "ship it")) as [{ isError: boolean; text: string }];
      expect(lost.isError).toBe(true);
      expect(lost.text).toMatch(
        /"Callback action" was lost with the process that staged it \(pid \d+ on .*\), which has ended/,
      );
      expect(await step("resolve", "apply", "ship it")).toEqual([{ isError: false, text: "renamed t1" }]);
      expect(await applied()).toEqual(["t1 ship it"]);
      expect(await step("list")).toEqual([[]]);
      expect(await step("history")).toEqual([["staged", "staged", "lost", "applied"]]);
    });

    // On PostgreSQL: end to end (the chat server killed mid-apply, mcp --store restarted) and the other-host case.
    if (name === "SQLite")
      it("a process killed with SIGKILL in the middle of an apply leaves it interrupted: reported, never applied again", async () => {
        const hanging = started("hang", log);
        expect(await hanging.next()).toEqual({ applying: true });
        await hanging.kill();

        const [refused] = (await step("resolve", "apply", "try again")) as [
          { isError: boolean; text: string },
        ];
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain('"Hanging rename" was interrupted while it was being applied');
        expect(refused.text).toContain("It is never applied again");
        const [discarded] = (await step("resolve", "discard", "checked by hand")) as [
          { isError: boolean; text: string },
        ];
        expect(discarded).toMatchObject({ isError: false });
        expect(discarded.text).toContain("Discarded: Hanging rename. Reason: checked by hand");
        expect(await applied()).toEqual(["hang"]);
        expect(await step("history")).toEqual([["staged", "interrupted", "discarded"]]);
      });

    // What the store does above the journal: once, on SQLite.
    if (name === "SQLite")
      it("a callback action interrupted by a SIGKILL can be discarded (it never comes back)", async () => {
        const hanging = started("hang-closure");
        expect(await hanging.next()).toEqual({ applying: true });
        await hanging.kill();
        const [refused] = (await step("resolve", "apply", "again")) as [{ isError: boolean; text: string }];
        expect(refused.text).toContain('"Hanging callback" was interrupted while it was being applied');
        const [discarded] = (await step("resolve", "discard", "checked")) as [
          { isError: boolean; text: string },
        ];
        expect(discarded).toMatchObject({ isError: false });
        expect(await step("list")).toEqual([[]]);
        expect(await step("history")).toEqual([["staged", "interrupted", "discarded"]]);
      });

    if (name === "PostgreSQL")
      it("a process on another host killed in the middle of an apply: its lock goes with its connection, and this host reports it interrupted", async () => {
        const hanging = started("hang", log, "--host", "host-elsewhere");
        const { process: owner } = (await hanging.next()) as { process: { token: string } };
        expect(await hanging.next()).toEqual({ applying: true });
        // Alive on its host: its lock is held, and this host leaves its apply alone.
        expect(await lockHeld(db, owner.token)).toBe(true);
        expect(await step("resolve", "apply", "too soon")).toEqual([
          { isError: true, text: "No pending action to resolve. Nothing to apply or discard." },
        ]);
        await hanging.kill();
        await lockReleased(db, owner.token);

        const [refused] = (await step("resolve", "apply", "try again")) as [
          { isError: boolean; text: string },
        ];
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain('"Hanging rename" was interrupted while it was being applied');
        expect(await step("resolve", "discard", "checked")).toEqual([
          expect.objectContaining({ isError: false }),
        ]);
        expect(await applied()).toEqual(["hang"]);
        expect(await step("history")).toEqual([["staged", "interrupted", "discarded"]]);
      });

    it("an apply that outlives its deadline is not applied again by another process meanwhile", async () => {
      const slow = started("slow", log);
      expect(await slow.next()).toEqual({ applying: true });
      const timedOut = (await slow.next()) as { isError: boolean; text: string };
      expect(timedOut.isError).toBe(true);
      expect(timedOut.text).toContain('Apply of "Slow rename" did not finish within');
      // The record is the first process's while its apply may run: not on another's stack.
      expect(await step("resolve", "apply", "me too")).toEqual([
        { isError: true, text: "No pending action to resolve. Nothing to apply or discard." },
      ]);
      slow.send("go");
      expect(await slow.next()).toEqual({ late: true });
      await slow.ended();
      expect(await applied()).toEqual(["slow"]);
    });

    // On PostgreSQL: end to end (the chat server killed mid-apply, mcp --store restarted) and the other-host case.
    if (name === "SQLite")
      it("a session disposed at shutdown leaves its durable actions to the next process and discards its callback ones", async () => {
        await step("stage", log, "t2", "closure", "dispose");
        const [listed] = (await step("list")) as [Array<{ label: string }>];
        expect(listed.map(({ label }) => label)).toEqual(["Rename t2"]);
        expect(await step("resolve", "apply", "after the restart")).toEqual([
          { isError: false, text: "renamed t2" },
        ]);
        expect(await step("history")).toEqual([["staged", "staged", "discarded", "applied"]]);
      });

    it("two processes resolving the same action apply it exactly once", async () => {
      await step("stage", log, "once");
      const first = started("race", "apply");
      const second = started("race", "apply");
      expect(await first.next()).toEqual({ ready: true, pending: 1 });
      expect(await second.next()).toEqual({ ready: true, pending: 1 });
      first.send("go");
      second.send("go");
      const results = (await Promise.all([first.next(), second.next()])) as Array<{
        isError: boolean;
        text: string;
      }>;
      await Promise.all([first.ended(), second.ended()]);
      expect(results.filter((result) => !result.isError).map((result) => result.text)).toEqual([
        "renamed once",
      ]);
      expect(results.find((result) => result.isError)?.text).toContain(
        '"Rename once" was resolved by another process meanwhile',
      );
      expect(await applied()).toEqual(["once race"]);
      expect(await step("history")).toEqual([["staged", "applied"]]);
    });

    // What the store does above the journal: once, on SQLite.
    if (name === "SQLite")
      it("a handler the loaded tools no longer declare is an error that keeps the action", async () => {
        await step("stage", log, "kept");
        const [refused] = (await step("resolve", "apply", "now", "--no-handler")) as [
          { isError: boolean; text: string },
        ];
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain('declares the action handler "rename"');
        expect(await applied()).toEqual([]);
        expect(await step("resolve", "apply", "now")).toEqual([{ isError: false, text: "renamed kept" }]);
        expect(await step("history")).toEqual([["staged", "applied"]]);
      });
  });
}
