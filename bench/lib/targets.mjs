// The targets of issue 15 (issue 6's, tightened), read from one report (ratios from the same run).
import { markdownTable } from "./stats.mjs";

/**
 * @param {any} report the JSON report of bench/run.mjs
 * @returns {Array<{ target: string; figure: string; met: boolean | undefined }>}
 */
export function evaluateTargets(report) {
  const load = report.benchmarks.load;
  const runtime = report.benchmarks.runtime;
  const cli = report.benchmarks.cli;
  /** @param {number} n @param {string} variant */
  const row = (n, variant) =>
    load?.results.find((/** @type {any} */ r) => r.n === n && r.variant === variant && r.status === "ok");
  /** @param {number | undefined} value @param {number} limit @param {(v: number) => string} show */
  const check = (value, limit, show) =>
    value === undefined || !Number.isFinite(value)
      ? { figure: "not measured", met: undefined }
      : { figure: show(value), met: value <= limit };
  const times = (/** @type {number} */ value) => `${value.toFixed(2)}×`;
  const targets = [];
  for (const [n, limit] of [
    [100, 1.0],
    [500, 0.8],
  ]) {
    targets.push({
      target: `Warm cache, N = ${n}: Tooldock/esbuild ≤ ${limit.toFixed(1)}× the per-file native floor`,
      ...check(row(n, "tooldock-esbuild-warm")?.ratioToFloor, limit, times),
    });
  }
  targets.push({
    target: "Cold cache, N = 100: ≤ 3.5× the per-file native floor",
    ...check(row(100, "tooldock-esbuild-cold")?.ratioToFloor, 3.5, times),
  });
  const cold = row(100, "tooldock-esbuild-cold")?.median.allMs;
  const jiti = row(100, "jiti-nocache")?.median.allMs;
  const speedup = cold && jiti ? jiti / cold : undefined;
  targets.push({
    target: "Cold cache, N = 100: ≥ 5× faster than jiti 2 without a cache",
    ...(speedup === undefined
      ? { figure: "not measured", met: undefined }
      : { figure: `${speedup.toFixed(2)}× faster`, met: speedup >= 5 }),
  });
  const warm500 = row(500, "tooldock-esbuild-warm");
  targets.push({
    target: "Warm, N = 500: first tool usable by the host (registered in its session) ≤ 30 ms",
    ...check(
      warm500?.firstReported ? warm500.median.firstMs : undefined,
      30,
      (value) => `${value.toFixed(1)} ms`,
    ),
  });
  targets.push({
    target: "Warm, N = 500: RSS per tool ≤ 60 KB",
    ...check(warm500?.median.rssPerToolKb, 60, (value) => `${value.toFixed(1)} KB`),
  });
  const typebox = runtime?.results?.find((/** @type {any} */ r) => r.id === "typebox");
  targets.push({
    target: "session.execute overhead over a direct call, TypeBox tool: ≤ 1.0 µs",
    ...check(typebox ? typebox.overheadNs / 1000 : undefined, 1, (value) => `${value.toFixed(2)} µs`),
  });
  const list = cli?.results?.find((/** @type {any} */ r) => r.id === "tooldock-list");
  targets.push({
    target: "`tooldock list` on the examples, warm cache: ≤ 2.0× `node -e ''`",
    ...check(list?.ratioToFloor, 2.0, times),
  });
  return targets;
}

/** @param {ReturnType<typeof evaluateTargets>} targets */
export function formatTargets(targets) {
  return markdownTable(
    ["target", "this run", "met"],
    targets.map((entry) => [
      entry.target,
      entry.figure,
      entry.met === undefined ? "–" : entry.met ? "yes" : "**no**",
    ]),
  );
}
