// bench/pending: durable pending-action stores. Starts a private PostgreSQL server (when Debian's
// postgresql is installed) and a private folder for the SQLite file, runs
// bench/pending/child.mjs in a fresh process, removes both, and shapes the figures: per store
// (memory, SQLite, PostgreSQL) and concurrency, µs per cycle (stage + resolve apply), cycles/s,
// the ratio to memory at the same concurrency; PostgreSQL's statements per transition.
// SQLite needs node:sqlite (Node 22.13+): under a Node without it the SQLite rows are skipped with
// the reason; `--node 24` runs the whole child (every store, so the ratios stay comparable) there.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findPostgres, startPostgresCluster } from "../../scripts/postgres-cluster.mjs";
import { runChild } from "../lib/child.mjs";
import { builtRuntime } from "../lib/resolve.mjs";
import { fixed, markdownTable, median, ratio } from "../lib/stats.mjs";

const childScript = fileURLToPath(new URL("./child.mjs", import.meta.url));
const STORES = ["memory", "sqlite", "postgres"];
const STORE_LABELS = /** @type {Record<string, string>} */ ({
  memory: "memory",
  sqlite: "SQLite",
  postgres: "PostgreSQL",
});
/** The bar: at most one round trip to the database per transition. */
const TRANSITIONS = { push: 1, apply: 2, discard: 1 };

/**
 * Starts the private PostgreSQL server, or says why there is none.
 * @param {(line: string) => void} [log]
 * @returns {Promise<{ cluster: Awaited<ReturnType<typeof startPostgresCluster>> | undefined; reason: string }>}
 */
async function startServer(log) {
  const found = findPostgres();
  if (!("bin" in found)) return { cluster: undefined, reason: found.missing };
  log?.(`pending: starting a private PostgreSQL server (${found.bin})`);
  try {
    return { cluster: await startPostgresCluster(found), reason: "" };
  } catch (error) {
    return {
      cluster: undefined,
      reason: `the PostgreSQL server did not start: ${String(error).slice(0, 600)}`,
    };
  }
}

/**
 * Runs `work`; a Ctrl-C or SIGTERM meanwhile runs `cleanup` (the server's and the SQLite file's
 * folders) before this process ends of that signal.
 * @template T
 * @param {() => Promise<void>} cleanup
 * @param {() => Promise<T>} work
 */
async function withCleanup(cleanup, work) {
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    cleanup().finally(() => process.kill(process.pid, signal));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work();
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await cleanup();
  }
}

/**
 * `cycles`: the least cycles of a round of each arm (split among its clients); `roundMs`: each
 * arm's rounds are sized after the warm-up to last about that long (0: exactly `cycles`);
 * `rounds`: measured rounds, arms interleaved; `concurrencies`: clients of each arm.
 * @param {{ cycles: number; rounds: number; roundMs?: number; concurrencies?: number[];
 *   log?: (line: string) => void; node?: import("../lib/node.mjs").ChildNode; timeoutMs?: number }} options
 */
export async function runPendingBenchmark(options) {
  const concurrencies = options.concurrencies ?? [1, 8];
  const base = {
    benchmark: "pending",
    cycles: options.cycles,
    rounds: options.rounds,
    roundMs: options.roundMs ?? 0,
    concurrencies,
    node: options.node?.version ?? process.version,
  };
  const availability = await builtRuntime([
    "Session",
    "Session.open",
    "openSqliteJournal",
    "openPostgresJournal",
  ]);
  if (!availability.available) {
    options.log?.(`pending: skipped (${availability.reason})`);
    return { ...base, status: "skipped", reason: availability.reason, stores: {}, results: [] };
  }
  const sqliteDir = await mkdtemp(join(tmpdir(), "tooldock-bench-pending-"));
  /** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
  let server;
  const cleanup = async () => {
    await server?.cluster?.destroy();
    await rm(sqliteDir, { recursive: true, force: true });
  };
  const outcome = await withCleanup(cleanup, async () => {
    server = await startServer(options.log);
    if (server.cluster === undefined) options.log?.(`pending: PostgreSQL skipped (${server.reason})`);
    const task = {
      cycles: options.cycles,
      rounds: options.rounds,
      roundMs: options.roundMs ?? 0,
      concurrencies,
      sqliteDir,
      postgresUrl: server.cluster?.url ?? null,
      postgresSkip: server.cluster === undefined ? server.reason : null,
    };
    options.log?.(
      `pending: ${options.rounds} round(s) of memory, SQLite, PostgreSQL × ${concurrencies.join(", ")} client(s) under Node ${base.node}`,
    );
    return await runChild([childScript, JSON.stringify(task)], {
      execPath: options.node?.execPath,
      timeoutMs: options.timeoutMs ?? 900_000,
    });
  });
  if (!outcome.ok) return { ...base, status: "error", reason: outcome.error, stores: {}, results: [] };
  const value = outcome.value;
  /** @type {Record<string, { status: string; reason?: string; version?: string }>} */
  const stores = value.stores;

  const results = value.arms.map((/** @type {any} */ arm) => {
    const samples = arm.samples;
    const pick = (/** @type {string} */ key) => median(samples.map((/** @type {any} */ s) => s[key]));
    const usPerCycle = pick("usPerCycle");
    const row = {
      id: arm.id,
      store: arm.store,
      concurrency: arm.concurrency,
      rounds: samples.length,
      cyclesPerRound: samples[0]?.cycles ?? 0,
      usPerCycle,
      cyclesPerSecond: 1e6 / usPerCycle,
      pushUs: pick("pushUs"),
      resolveUs: pick("resolveUs"),
      ratioToMemory: Number.NaN,
      samplesUsPerCycle: samples.map((/** @type {any} */ s) => s.usPerCycle),
    };
    if (arm.store === "postgres") return { ...row, statementsPerCycle: pick("statementsPerCycle") };
    return row;
  });
  for (const row of results) {
    const memory = results.find(
      (/** @type {any} */ other) => other.store === "memory" && other.concurrency === row.concurrency,
    );
    row.ratioToMemory = memory ? row.usPerCycle / memory.usPerCycle : Number.NaN;
  }

  const probe = value.statementsPerTransition;
  const statements = probe
    ? {
        ...Object.fromEntries(
          Object.entries(TRANSITIONS).map(([step, transitions]) => [
            step,
            {
              statements: probe[step].statements,
              transitions,
              perTransition: probe[step].statements / transitions,
              sent: probe[step].sent,
            },
          ]),
        ),
        withinBar: Object.keys(TRANSITIONS).every(
          (step) => probe[step].statements <= TRANSITIONS[/** @type {keyof typeof TRANSITIONS} */ (step)],
        ),
      }
    : undefined;
  const floors = {
    postgresRoundTripUs: value.roundTripUs.length > 0 ? median(value.roundTripUs) : undefined,
    fdatasyncUs: value.fdatasyncUs.length > 0 ? median(value.fdatasyncUs) : undefined,
  };
  return { ...base, status: "ok", reason: "", stores, statements, floors, results };
}

/** @param {Awaited<ReturnType<typeof runPendingBenchmark>>} report */
export function formatPendingReport(report) {
  if (report.status !== "ok") return `pending: ${report.status} (${report.reason})`;
  const us = (/** @type {number} */ value) => fixed(value, value < 100 ? 1 : 0);
  const lines = [
    markdownTable(
      [
        "store",
        "clients",
        "µs/cycle",
        "rounds: fastest–slowest (µs/cycle)",
        "cycles/s",
        "× memory",
        "push / resolve latency (µs)",
        "statements/cycle",
        "cycles/round",
      ],
      report.results.map((/** @type {any} */ row) => [
        STORE_LABELS[row.store] ?? row.store,
        row.concurrency,
        us(row.usPerCycle),
        `${us(Math.min(...row.samplesUsPerCycle))}–${us(Math.max(...row.samplesUsPerCycle))}`,
        fixed(row.cyclesPerSecond, 0),
        ratio(row.ratioToMemory),
        `${us(row.pushUs)} / ${us(row.resolveUs)}`,
        row.statementsPerCycle === undefined ? "–" : fixed(row.statementsPerCycle, 2),
        row.cyclesPerRound,
      ]),
    ),
    "",
    `A cycle: a tool call staging one durable action, then resolve apply (its handler only counts). µs/cycle: wall time of a round / its cycles (all clients together), median of ${report.rounds} round(s); cycles/s: its inverse; × memory: against memory with as many clients, same run. Latencies: mean per call, as a client waits for it. Clients: sessions of one journal in one process (PostgreSQL: one pool of ${Math.max(...report.concurrencies)} connections).`,
  ];
  const versions = STORES.filter(
    (store) => report.stores[store]?.status === "ok" && report.stores[store].version,
  )
    .map((store) => `${STORE_LABELS[store]} ${report.stores[store].version}`)
    .join(", ");
  if (versions) lines.push("", `Versions: ${versions}; Node ${report.node}.`);
  const floors = [
    report.floors.postgresRoundTripUs !== undefined &&
      `one \`SELECT 1\` round trip on the PostgreSQL pool ${us(report.floors.postgresRoundTripUs)} µs`,
    report.floors.fdatasyncUs !== undefined &&
      `one fdatasync of a small append beside the SQLite file ${us(report.floors.fdatasyncUs)} µs`,
  ].filter(Boolean);
  if (floors.length > 0) lines.push("", `Floors, median of rounds: ${floors.join("; ")}.`);
  for (const store of STORES) {
    const state = report.stores[store];
    if (state && state.status !== "ok")
      lines.push("", `${STORE_LABELS[store]}: ${state.status} (${state.reason})`);
  }
  const statements = report.statements;
  if (statements) {
    lines.push(
      "",
      markdownTable(
        ["PostgreSQL transition", "statements", "transitions", "per transition", "sent"],
        Object.keys(TRANSITIONS).map((step) => {
          const entry = statements[/** @type {"push" | "apply" | "discard"} */ (step)];
          return [
            step === "push" ? "push (stage)" : `${step}-resolve`,
            entry.statements,
            entry.transitions,
            fixed(entry.perTransition, 2),
            entry.sent.map((/** @type {string} */ text) => `\`${text}\``).join(", "),
          ];
        }),
      ),
      "",
      `Bar, at most one round trip per transition: ${statements.withinBar ? "met" : "**not met**"}.`,
    );
  }
  return lines.join("\n");
}
