// Smoke run of every benchmark: tiny sizes, one run each. Correctness only (the report has its
// shape, every loader loaded every tool, the runtime passed calls through, every pending store
// that is not skipped ran its cycles); never timing.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ensureRuntime } from "../scripts/runtimes.mjs";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./run.mjs", import.meta.url));
const loadScript = (name: string) => fileURLToPath(new URL(`./load/${name}.mjs`, import.meta.url));
const built = existsSync(fileURLToPath(new URL("../packages/loader/dist/index.js", import.meta.url)));

/** Runs a script of bench/load/ with `args` and returns what it printed. */
async function loadTool(name: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [loadScript(name), ...args], {
    maxBuffer: 16 * 1024 * 1024,
    timeout: 80_000,
  });
  return stdout;
}

interface LoadRow {
  n: number;
  variant: string;
  status: "ok" | "error" | "skipped";
  reason?: string;
  errors: string[];
  median: { allMs: number; firstMs: number; rssPerToolKb: number };
  ratioToFloor: number;
}

interface Section<Row> {
  status: "ok" | "error" | "skipped";
  reason?: string;
  results: Row[];
}

interface RuntimeRow {
  id: string;
  overheadNs?: number;
  roundTripNs?: number;
}

interface CliRow {
  id: string;
  wallMs: number;
}

interface PendingRow {
  id: string;
  store: "memory" | "sqlite" | "postgres";
  concurrency: number;
  cyclesPerRound: number;
  usPerCycle: number;
  cyclesPerSecond: number;
  ratioToMemory: number;
  statementsPerCycle?: number;
}

interface PendingSection extends Section<PendingRow> {
  stores: Record<string, { status: "ok" | "skipped" | "error"; reason?: string }>;
  statements?: Record<"push" | "apply" | "discard", { statements: number }> & { withinBar: boolean };
}

interface SmokeReport {
  machine: { node: string; cpus: number };
  benchmarks: {
    load: {
      floor: string;
      node: { version: string; execPath: string };
      tooldock: { available: boolean; reason: string };
      strippable: boolean;
      results: LoadRow[];
    };
    runtime: Section<RuntimeRow>;
    cli: Section<CliRow>;
    pending: PendingSection;
  };
}

/** The four benchmarks in smoke mode, side by side (their figures are not read). */
async function smoke(): Promise<SmokeReport> {
  const reports = await Promise.all(
    ["load", "runtime", "cli", "pending"].map(async (name) => {
      const { stdout } = await run(process.execPath, [script, name, "--smoke", "--json"], {
        maxBuffer: 16 * 1024 * 1024,
        timeout: 80_000,
      });
      return JSON.parse(stdout) as SmokeReport;
    }),
  );
  const [first] = reports as [SmokeReport, ...SmokeReport[]];
  return { ...first, benchmarks: Object.assign({}, ...reports.map((report) => report.benchmarks)) };
}

describe("pnpm bench --smoke", () => {
  it("reports every benchmark with its figures", { timeout: 90_000 }, async () => {
    const report = await smoke();
    expect(report.machine).toMatchObject({ node: process.version, cpus: expect.any(Number) });
    expect(Object.keys(report.benchmarks).sort()).toEqual(["cli", "load", "pending", "runtime"]);

    const load = report.benchmarks.load;
    expect(load.floor).toBe("native-file");
    // Without --node the children run under this Node, and the report says so.
    expect(load.node).toEqual({ version: process.version, execPath: process.execPath });
    const rows = load.results;
    const variants = rows.map((row) => row.variant);
    for (const baseline of ["native-file", "native-bundle", "jiti-nocache", "jiti-fscache"]) {
      expect(variants).toContain(baseline);
    }
    if (load.tooldock.available) {
      for (const tooldock of ["tooldock-esbuild-warm", "tooldock-esbuild-cold", "tooldock-jiti-warm"]) {
        expect(variants).toContain(tooldock);
      }
    } else expect(load.tooldock.reason).toMatch(/not built yet/);
    for (const row of rows) {
      expect(row.errors, `${row.variant}: ${row.errors.join("; ")}`).toEqual([]);
      // The file-by-file floor needs module.registerHooks: skipped on Node 20; Node alone needs
      // tools it can strip (--strippable). Both are measured below.
      if (row.status === "skipped") {
        expect(row.variant).toMatch(/^(oxc|node-strip)-/);
        expect(row.reason).toMatch(row.variant.startsWith("oxc-") ? /registerHooks/ : /--strippable/);
        continue;
      }
      expect(row.status).toBe("ok");
      expect(row.median.allMs).toBeGreaterThan(0);
      expect(row.median.firstMs).toBeGreaterThan(0);
      expect(Number.isFinite(row.median.rssPerToolKb)).toBe(true);
    }
    expect(rows.find((row) => row.variant === "native-file")?.ratioToFloor).toBe(1);

    const { runtime, cli, pending } = report.benchmarks;
    for (const section of [runtime, cli, pending]) {
      if (section.status === "skipped") expect(section.reason).toMatch(/not built yet/);
      else expect(section.status, section.reason).toBe("ok");
    }
    if (runtime.status === "ok") {
      expect(runtime.results.map((row) => row.id)).toEqual([
        "typebox",
        "zod",
        "typebox-signal",
        "push-pop",
        "push-resolve",
        "push-resolve-session",
      ]);
      for (const row of runtime.results) {
        const figure = row.overheadNs ?? row.roundTripNs;
        expect(Number.isFinite(figure), `${row.id} has a figure`).toBe(true);
      }
    }
    if (cli.status === "ok") {
      expect(cli.results.map((row) => row.id)).toEqual(["node-e", "tooldock-list"]);
      expect(cli.results.every((row) => row.wallMs > 0)).toBe(true);
    }
    if (pending.status === "ok") {
      // Every store measured, or skipped with its reason (no node:sqlite, no PostgreSQL); memory always.
      for (const [store, state] of Object.entries(pending.stores)) {
        if (state.status === "skipped") expect(state.reason, store).toMatch(/\S/);
        else expect(state.status, `${store}: ${state.reason}`).toBe("ok");
      }
      const measured = Object.keys(pending.stores).filter((store) => pending.stores[store]?.status === "ok");
      expect(measured).toContain("memory");
      expect(pending.results.map((row) => row.id)).toEqual(
        measured.flatMap((store) => [`${store}-1`, `${store}-8`]),
      );
      for (const row of pending.results) {
        expect(row.cyclesPerRound, `${row.id} ran cycles`).toBeGreaterThan(0);
        expect(row.usPerCycle, `${row.id} has a time`).toBeGreaterThan(0);
        expect(Number.isFinite(row.cyclesPerSecond) && Number.isFinite(row.ratioToMemory), row.id).toBe(true);
      }
      if (pending.stores.postgres?.status === "ok") {
        expect(pending.statements?.withinBar).toBe(true);
        for (const row of pending.results.filter((r) => r.store === "postgres")) {
          expect(row.statementsPerCycle, row.id).toBeGreaterThan(0);
          expect(row.statementsPerCycle, row.id).toBeLessThanOrEqual(3); // one per transition
        }
      }
      // As the PostgreSQL tests: in CI a missing server is a failure (postgresForTests).
      if (process.env.CI === "true") expect(pending.stores.postgres?.status).toBe("ok");
    }
  });

  it("measures the file-by-file cold floor (oxc in module hooks) and Node alone under Node 24", {
    timeout: 300_000,
  }, async () => {
    const node24 = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
    const variants = ["oxc-hooks", "oxc-hooks-seq", "oxc-ahead-seq", "node-strip-warm", "node-strip-cold"];
    const { stdout } = await run(
      process.execPath,
      [
        script,
        "load",
        "--smoke",
        "--json",
        "--strippable",
        "--node",
        node24,
        "--variants",
        variants.join(","),
      ],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
    );
    const load = (JSON.parse(stdout) as SmokeReport).benchmarks.load;
    expect(load.strippable).toBe(true);
    const rows = load.results;
    for (const variant of variants) {
      const row = rows.find((each) => each.variant === variant);
      expect(row?.errors, variant).toEqual([]);
      expect(row?.status, variant).toBe("ok");
      expect(row?.median.allMs, variant).toBeGreaterThan(0);
    }
  });

  // The load benchmark's tools beside run.mjs: each once, tiny, so a change to the loader's
  // internals they import cannot leave them broken unnoticed.
  it.skipIf(!built)(
    "runs the stage timings, the call cost and the profiler",
    { timeout: 90_000 },
    async () => {
      const [stages, callCost, profile] = await Promise.all([
        loadTool("stages", ["--sizes", "3", "--runs", "1", "--smoke"]),
        loadTool("call-cost", ["--rounds", "1", "--calls", "3", "--window-runs", "1"]),
        loadTool("profile", ["tooldock-esbuild-warm", "3", "--top", "3", "--smoke"]),
      ]);
      const stageRows = stages.split("\n").filter((line) => /^\| 3 \| (cold|warm) \|/.test(line));
      expect(stageRows).toHaveLength(2);
      for (const row of stageRows) {
        const times = row
          .split("|")
          .slice(3, -1)
          .map((cell) => cell.trim());
        expect(times, row).toHaveLength(5); // discover, build, evaluate, accept, register
        for (const time of times) expect(time, row).toMatch(/^\d+\.\d \(\d+\)$/);
      }

      const callRows = callCost
        .split("\n")
        .filter((line) => line.startsWith("| ") && !line.startsWith("| call"));
      expect(callRows.map((row) => row.split("|")[1]?.trim())).toEqual([
        "ping-pong of two Node processes (floor)",
        "the same in the load benchmark's window (fresh processes, calls 51-1,050; 1 run)",
        "`ping` to an idle tool host (`ToolHostProcess`)",
        "in-process probe tool (esbuild)",
        "isolated probe tool",
        "in-process tool answers at once",
        "in-process tool after a loop turn",
        "in-process tool after a loop turn, sees its signal",
        "in-process tool after a loop turn, listens on its signal (as a proxy did)",
      ]);
      for (const row of callRows) expect(Number(row.split("|")[2]), row).toBeGreaterThan(0);

      expect(profile).toMatch(
        /^tooldock-esbuild-warm, N=3, Node v[\d.]+: all ready [\d.]+ ms, first [\d.]+ ms$/m,
      );
      expect(profile).toMatch(/self time by owner/);
    },
  );
});
