// Smoke run of every benchmark: tiny sizes, one run each. Correctness only (the report has its
// shape, every loader loaded every tool, the runtime passed calls through); never timing.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./run.mjs", import.meta.url));

interface LoadRow {
  n: number;
  variant: string;
  status: "ok" | "error";
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

interface SmokeReport {
  machine: { node: string; cpus: number };
  benchmarks: {
    load: {
      floor: string;
      node: { version: string; execPath: string };
      tooldock: { available: boolean; reason: string };
      results: LoadRow[];
    };
    runtime: Section<RuntimeRow>;
    cli: Section<CliRow>;
  };
}

/** The three benchmarks in smoke mode, side by side (their figures are not read). */
async function smoke(): Promise<SmokeReport> {
  const reports = await Promise.all(
    ["load", "runtime", "cli"].map(async (name) => {
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
    expect(Object.keys(report.benchmarks).sort()).toEqual(["cli", "load", "runtime"]);

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
      expect(row.status).toBe("ok");
      expect(row.median.allMs).toBeGreaterThan(0);
      expect(row.median.firstMs).toBeGreaterThan(0);
      expect(Number.isFinite(row.median.rssPerToolKb)).toBe(true);
    }
    expect(rows.find((row) => row.variant === "native-file")?.ratioToFloor).toBe(1);

    const { runtime, cli } = report.benchmarks;
    for (const section of [runtime, cli]) {
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
  });
});
