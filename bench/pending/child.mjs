// bench/pending, measured in a fresh process: cycles of a durable pending action (a tool call
// that stages it with `ctx.pushPendingAction`, then `resolve` apply, whose handler does next to
// nothing) in memory, in SQLite and in PostgreSQL, by 1 client and by N concurrent clients
// (N sessions of one journal in this process), arms interleaved round by round.
// Usage: node bench/pending/child.mjs '{"cycles":200,"rounds":11,"roundMs":500,"concurrencies":[1,8],
//   "sqliteDir":"/tmp/…","postgresUrl":"postgresql://…"|null,"postgresSkip":"why"|null}'
// `cycles`: the least cycles of a round (split among the clients); `roundMs`: see the warm-up.
// Prints one JSON line: per arm, one sample per round; the PostgreSQL statements per transition
// and the round trip of a `SELECT 1` on the same pool; an fdatasync beside the SQLite file.
import { closeSync, fdatasyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { packageUrl } from "../lib/resolve.mjs";

const task = JSON.parse(process.argv[2] ?? "{}");
/** @type {{ cycles: number; rounds: number; roundMs?: number; concurrencies: number[]; sqliteDir: string;
 *   postgresUrl: string | null; postgresSkip: string | null }} */
const { cycles, rounds, roundMs = 0, concurrencies, sqliteDir, postgresUrl, postgresSkip } = task;
/** Most cycles in one round of one arm. */
const MAX_CYCLES = 200_000;
const { Type } = await import(packageUrl("@sinclair/typebox"));
const runtime = await import(packageUrl("@tooldock/runtime"));
const log = (/** @type {string} */ line) => process.stderr.write(`pending child: ${line}\n`);

const REASON = "bench";
const APPLY = { action: "apply", reason: REASON };
const DISCARD = { action: "discard", reason: REASON };

/**
 * A tool that stages one durable action per call; its handler only counts and answers.
 * @param {{ applied: number }} counter
 */
function stagingTool(counter) {
  return {
    name: "bench_stage",
    label: "Bench stage",
    description: "Stages one durable pending action.",
    parameters: Type.Object({ n: Type.Integer() }),
    actions: {
      touch: {
        async apply(/** @type {{ n: number }} */ payload) {
          counter.applied += 1;
          return { content: [{ type: "text", text: `applied ${payload.n}` }] };
        },
      },
    },
    async execute(_toolCallId, /** @type {{ n: number }} */ params, _onUpdate, ctx) {
      ctx.pushPendingAction({ label: `Touch ${params.n}`, handler: "touch", payload: { n: params.n } });
      return { content: [{ type: "text", text: "staged" }] };
    },
  };
}

/** @param {any} result */
const textOf = (result) => result?.content?.map((/** @type {any} */ block) => block.text ?? "").join("");

/**
 * A session of the store with the staging tool registered.
 * @typedef {{ session: any; counter: { applied: number }; next: number }} Client
 * @param {(sessionId: string) => Promise<any>} openSession
 * @param {string} sessionId
 * @returns {Promise<Client>}
 */
async function client(openSession, sessionId) {
  const counter = { applied: 0 };
  const session = await openSession(sessionId);
  session.register(stagingTool(counter), "bench/pending");
  return { session, counter, next: 0 };
}

/**
 * One client's cycles, each checked (a cycle that fails is an error, never a fast figure).
 * @param {Client} c @param {number} count
 */
async function runCycles(c, count) {
  let pushMs = 0;
  let resolveMs = 0;
  for (let index = 0; index < count; index += 1) {
    const n = c.next;
    c.next += 1;
    const t0 = performance.now();
    const staged = await c.session.execute({ toolCallId: `stage-${n}`, name: "bench_stage", params: { n } });
    const t1 = performance.now();
    const resolved = await c.session.execute({ toolCallId: `resolve-${n}`, name: "resolve", params: APPLY });
    const t2 = performance.now();
    if (staged.isError || textOf(staged) !== "staged")
      throw new Error(`${c.session.id}: the staging call failed: ${textOf(staged)}`);
    if (resolved.isError || textOf(resolved) !== `applied ${n}`)
      throw new Error(`${c.session.id}: resolve apply did not apply action ${n}: ${textOf(resolved)}`);
    pushMs += t1 - t0;
    resolveMs += t2 - t1;
  }
  return { pushMs, resolveMs };
}

/**
 * @typedef {{ id: string; store: string; concurrency: number; perClient: number; clients: Client[];
 *   statements?: () => number }} Arm
 * @param {Arm} arm
 */
async function measure(arm) {
  const statementsBefore = arm.statements?.();
  const appliedBefore = arm.clients.reduce((sum, c) => sum + c.counter.applied, 0);
  const started = performance.now();
  const parts = await Promise.all(arm.clients.map((c) => runCycles(c, arm.perClient)));
  const wallMs = performance.now() - started;
  const total = arm.perClient * arm.clients.length;
  const applied = arm.clients.reduce((sum, c) => sum + c.counter.applied, 0) - appliedBefore;
  if (applied !== total) throw new Error(`${arm.id}: ${applied} of ${total} actions applied`);
  for (const c of arm.clients)
    if (c.session.pending.size !== 0) throw new Error(`${arm.id}: ${c.session.id} still has pending actions`);
  const pushMs = parts.reduce((sum, part) => sum + part.pushMs, 0);
  const resolveMs = parts.reduce((sum, part) => sum + part.resolveMs, 0);
  return {
    cycles: total,
    wallMs,
    usPerCycle: (wallMs * 1000) / total,
    cyclesPerSecond: total / (wallMs / 1000),
    pushUs: (pushMs * 1000) / total,
    resolveUs: (resolveMs * 1000) / total,
    ...(statementsBefore === undefined
      ? {}
      : { statementsPerCycle: ((arm.statements?.() ?? 0) - statementsBefore) / total }),
  };
}

/** @type {Record<string, { status: "ok" | "skipped" | "error"; reason?: string; version?: string }>} */
const stores = { memory: { status: "ok" } };
/** @type {Array<{ name: string; open: (sessionId: string) => Promise<any>; statements?: () => number }>} */
const backends = [{ name: "memory", open: async (sessionId) => new runtime.Session({ sessionId }) }];
/** @type {Array<() => Promise<void> | void>} */
const closers = [];
/** @type {any} */
let statementsPerTransition;
/** @type {(() => Promise<number>) | undefined} */
let roundTrip;
/** @type {(() => number) | undefined} */
let diskSync;

// SQLite: one journal (one file in the private folder the parent made) for every session.
try {
  const journal = runtime.openSqliteJournal(join(sqliteDir, "pending.db"));
  closers.push(() => journal.close());
  stores.sqlite = { status: "ok", version: process.versions.sqlite ?? "better-sqlite3" };
  // µs per small append + fdatasync beside the database: what a commit waits for at least.
  diskSync = () => {
    const fd = openSync(join(sqliteDir, "sync-floor"), "a", 0o600);
    const calls = 50;
    const started = performance.now();
    for (let index = 0; index < calls; index += 1) {
      writeSync(fd, "x".repeat(128));
      fdatasyncSync(fd);
    }
    const us = ((performance.now() - started) * 1000) / calls;
    closeSync(fd);
    return us;
  };
  backends.push({ name: "sqlite", open: (sessionId) => runtime.Session.open({ sessionId, journal }) });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  // No driver is this Node's doing (skipped); any other failure is the journal's (an error).
  stores.sqlite = message.includes("No SQLite driver")
    ? {
        status: "skipped",
        reason: `Node ${process.version} has no node:sqlite (22.13+) and better-sqlite3 is not installed: install it, or run with --node 24`,
      }
    : { status: "error", reason: message };
  log(`sqlite ${stores.sqlite.status}: ${stores.sqlite.reason}`);
}

// PostgreSQL: one pool of max(concurrencies) connections whose statements are counted (each is
// one round trip to the server), one journal on it for every session.
if (postgresUrl) {
  const { default: pg } = await import(packageUrl("pg", "runtime"));
  const pool = new pg.Pool({ connectionString: postgresUrl, max: Math.max(...concurrencies) });
  pool.on("error", () => {});
  closers.push(() => pool.end());
  const { rows } = await pool.query("SHOW server_version");
  /** @type {string[]} */
  const sent = [];
  let count = 0;
  const query = pool.query.bind(pool);
  pool.query = (/** @type {{ text: string }} */ config) => {
    count += 1;
    if (sent.length < 64) sent.push(config.text.trim().split(/\s+/).slice(0, 3).join(" "));
    return query(config);
  };
  const journal = await runtime.openPostgresJournal(pool);
  roundTrip = async () => {
    const calls = 200;
    const started = performance.now();
    for (let index = 0; index < calls; index += 1) await query("SELECT 1");
    return ((performance.now() - started) * 1000) / calls;
  };
  stores.postgres = { status: "ok", version: rows[0]?.server_version };
  backends.push({
    name: "postgres",
    open: (sessionId) => runtime.Session.open({ sessionId, journal }),
    statements: () => count,
  });

  // Statements per transition, on a session of its own (after its first read of the store).
  const probe = await client((sessionId) => runtime.Session.open({ sessionId, journal }), "probe-postgres");
  /** @param {() => Promise<any>} step @param {string} expected */
  const counted = async (step, expected) => {
    sent.length = 0;
    const result = await step();
    if (result.isError || !textOf(result).includes(expected))
      throw new Error(`statement probe: expected "${expected}", got ${textOf(result)}`);
    return [...sent];
  };
  const stage = () => probe.session.execute({ toolCallId: "p", name: "bench_stage", params: { n: 0 } });
  const push = await counted(stage, "staged");
  const apply = await counted(
    () => probe.session.execute({ toolCallId: "a", name: "resolve", params: APPLY }),
    "applied 0",
  );
  await stage();
  const discard = await counted(
    () => probe.session.execute({ toolCallId: "d", name: "resolve", params: DISCARD }),
    "Discarded",
  );
  statementsPerTransition = {
    push: { statements: push.length, sent: push },
    apply: { statements: apply.length, sent: apply },
    discard: { statements: discard.length, sent: discard },
  };
  await probe.session.dispose();
} else {
  stores.postgres = { status: "skipped", reason: postgresSkip ?? "no PostgreSQL server" };
}

/** @type {Arm[]} */
const arms = [];
for (const backend of backends) {
  for (const concurrency of concurrencies) {
    const id = `${backend.name}-${concurrency}`;
    const clients = [];
    for (let index = 0; index < concurrency; index += 1)
      clients.push(await client(backend.open, `bench-${id}-${index}-${process.pid}`));
    arms.push({
      id,
      store: backend.name,
      concurrency,
      perClient: Math.max(1, Math.ceil(cycles / concurrency)),
      clients,
      statements: backend.statements,
    });
  }
}

// Warm-up (JIT, pool connections) at `cycles`. With `roundMs`, each arm's rounds are sized to
// last about that long (a memory cycle takes microseconds, a durable one a thousand times
// more), from warm-up rounds grown until their pace no longer asks for half as many again (the
// first, cold rounds are slow and would undersize them). Then the rounds, in alternating order.
for (const arm of arms) {
  let warm = await measure(arm);
  for (let step = 0; roundMs > 0 && step < 6; step += 1) {
    const wanted = Math.min(MAX_CYCLES, Math.max(cycles, Math.ceil((roundMs * 1000) / warm.usPerCycle)));
    const perClient = Math.max(1, Math.ceil(wanted / arm.concurrency));
    if (perClient < arm.perClient * 1.5) break;
    arm.perClient = perClient;
    warm = await measure(arm);
  }
  log(`${arm.id}: ${arm.perClient * arm.concurrency} cycles a round`);
}
/** @type {Record<string, Array<Awaited<ReturnType<typeof measure>>>>} */
const samples = Object.fromEntries(arms.map((arm) => [arm.id, []]));
/** µs per `SELECT 1` on the pool, one sample per round: the floor of one round trip. */
const floorSamples = [];
/** µs per fdatasync beside the SQLite file, one sample per round. */
const syncSamples = [];
for (let round = 0; round < rounds; round += 1) {
  for (const arm of round % 2 === 0 ? arms : [...arms].reverse()) samples[arm.id].push(await measure(arm));
  if (roundTrip) floorSamples.push(await roundTrip());
  if (diskSync) syncSamples.push(diskSync());
  log(`round ${round + 1}/${rounds} done`);
}

// The durable stores kept every apply (a journal that wrote nothing would pass for a fast one).
for (const arm of arms) {
  if (arm.store === "memory") continue;
  for (const c of arm.clients) {
    const history = await c.session.pending.history();
    const applied = history.filter((/** @type {any} */ step) => step.kind === "applied").length;
    if (applied !== c.counter.applied)
      throw new Error(
        `${arm.id}: the journal kept ${applied} of ${c.counter.applied} applies of ${c.session.id}`,
      );
  }
}
for (const arm of arms) for (const c of arm.clients) await c.session.dispose();
for (const close of closers) await close();

process.stdout.write(
  `${JSON.stringify({
    cycles,
    rounds,
    concurrencies,
    stores,
    statementsPerTransition,
    roundTripUs: floorSamples,
    fdatasyncUs: syncSamples,
    arms: arms.map((arm) => ({
      id: arm.id,
      store: arm.store,
      concurrency: arm.concurrency,
      samples: samples[arm.id],
    })),
  })}\n`,
);
