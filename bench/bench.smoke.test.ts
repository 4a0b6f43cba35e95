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

interface Section {
  status: "ok" | "error" | "skipped";
  reason?: string;
  results: unknown[];
}

interface SmokeReport {
  machine: { node: string; cpus: number };
  benchmarks: { load: { floor: string; results: LoadRow[] }; runtime: Section; cli: Section };
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
    const rows = load.results;
    const variants = rows.map((row) => row.variant);
    for (const baseline of ["native-file", "native-bundle", "jiti-nocache", "jiti-fscache"]) {
      expect(variants).toContain(baseline);
    }
    for (const row of rows) {
      expect(row.errors, `${row.variant}: ${row.errors.join("; ")}`).toEqual([]);
      expect(row.status).toBe("ok");
      expect(row.median.allMs).toBeGreaterThan(0);
      expect(row.median.firstMs).toBeGreaterThan(0);
      expect(Number.isFinite(row.median.rssPerToolKb)).toBe(true);
    }
    expect(rows.find((row) => row.variant === "native-file")?.ratioToFloor).toBe(1);

    for (const section of [report.benchmarks.runtime, report.benchmarks.cli]) {
      if (section.status === "skipped") expect(section.reason).toMatch(/not built yet/);
      else expect(section.status, section.reason).toBe("ok");
    }
  });
});
