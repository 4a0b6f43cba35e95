// bench/runtime: runs bench/runtime/child.mjs in a fresh process and shapes its figures.
import { fileURLToPath } from "node:url";
import { runChild } from "../lib/child.mjs";
import { builtRuntime } from "../lib/resolve.mjs";
import { fixed, markdownTable } from "../lib/stats.mjs";

const childScript = fileURLToPath(new URL("./child.mjs", import.meta.url));

/**
 * `node`: the Node binary the measuring child runs under (default the one running this).
 * @param {{ calls: number; batches: number; log?: (line: string) => void;
 *   node?: import("../lib/node.mjs").ChildNode }} options
 */
export async function runRuntimeBenchmark(options) {
  const availability = await builtRuntime(["Session", "PendingActionStore", "createResolveTool"]);
  const base = {
    benchmark: "runtime",
    calls: options.calls,
    batches: options.batches,
    node: options.node?.version ?? process.version,
  };
  if (!availability.available) {
    options.log?.(`runtime: skipped (${availability.reason})`);
    return { ...base, status: "skipped", reason: availability.reason, results: [] };
  }
  const task = { calls: options.calls, batches: options.batches };
  const childOptions = { execPath: options.node?.execPath };
  const fresh = await runChild([childScript, JSON.stringify(task)], childOptions);
  if (!fresh.ok) return { ...base, status: "error", reason: fresh.error, results: [] };
  const loaded = await runChild([childScript, JSON.stringify({ ...task, afterLoad: true })], childOptions);
  if (!loaded.ok) return { ...base, status: "error", reason: loaded.error, results: [] };
  const a = fresh.value;
  const b = loaded.value;
  /** @param {string} id @param {string} label @param {string} arm */
  const perCallRow = (id, label, arm) => ({
    id,
    label,
    directNs: a.perCall[`${arm}Direct`],
    sessionNs: a.perCall[`${arm}Session`],
    overheadNs: a.perCall[`${arm}Session`] - a.perCall[`${arm}Direct`],
    afterLoad: {
      directNs: b.perCall[`${arm}Direct`],
      sessionNs: b.perCall[`${arm}Session`],
      overheadNs: b.perCall[`${arm}Session`] - b.perCall[`${arm}Direct`],
    },
  });
  /** @param {string} id @param {string} label @param {string} arm */
  const roundTripRow = (id, label, arm) => ({
    id,
    label,
    roundTripNs: a.roundTrips[arm],
    afterLoad: { roundTripNs: b.roundTrips[arm] },
  });
  const results = [
    perCallRow("typebox", "TypeBox tool: session.execute vs direct execute", "typebox"),
    perCallRow("zod", "zod tool: session.execute vs direct execute", "zod"),
    perCallRow("typebox-signal", "TypeBox tool taking the abort signal: session.execute vs direct", "signal"),
    roundTripRow("push-pop", "store.push + store.pop", "pushPop"),
    roundTripRow("push-resolve", "store.push + resolve tool (apply)", "pushResolveTool"),
    roundTripRow(
      "push-resolve-session",
      "pending.push + session.execute(resolve, apply)",
      "pushResolveSession",
    ),
  ];
  return { ...base, status: "ok", results };
}

/** @param {Awaited<ReturnType<typeof runRuntimeBenchmark>>} report */
export function formatRuntimeReport(report) {
  if (report.status !== "ok") return `runtime: ${report.status} (${report.reason})`;
  const us = (/** @type {number} */ ns) => fixed(ns / 1000, 2);
  return markdownTable(
    [
      "measure",
      "direct (µs/call)",
      "via Tooldock (µs/call)",
      "overhead (µs/call)",
      "after loadCustomTools: direct / via / overhead (µs)",
    ],
    report.results.map((row) =>
      "overheadNs" in row
        ? [
            row.label,
            us(row.directNs),
            us(row.sessionNs),
            us(row.overheadNs),
            `${us(row.afterLoad.directNs)} / ${us(row.afterLoad.sessionNs)} / ${us(row.afterLoad.overheadNs)}`,
          ]
        : [row.label, "–", us(row.roundTripNs), "–", `– / ${us(row.afterLoad.roundTripNs)} / –`],
    ),
  );
}
