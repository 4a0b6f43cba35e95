// bench/runtime: runs bench/runtime/child.mjs in a fresh process and shapes its figures.
import { fileURLToPath } from "node:url";
import { runChild } from "../lib/child.mjs";
import { packageUrl } from "../lib/resolve.mjs";
import { fixed, markdownTable } from "../lib/stats.mjs";

const childScript = fileURLToPath(new URL("./child.mjs", import.meta.url));

async function runtimeAvailability() {
  try {
    const runtime = await import(packageUrl("@tooldock/runtime"));
    const missing = ["Session", "PendingActionStore", "createResolveTool"].filter(
      (name) => typeof runtime[name] !== "function",
    );
    return missing.length === 0
      ? { available: true, reason: "" }
      : { available: false, reason: `not built yet: packages/runtime/dist lacks ${missing.join(", ")}` };
  } catch (error) {
    return { available: false, reason: `cannot import the built runtime: ${String(error)}` };
  }
}

/** @param {{ calls: number; batches: number; log?: (line: string) => void }} options */
export async function runRuntimeBenchmark(options) {
  const availability = await runtimeAvailability();
  const base = { benchmark: "runtime", calls: options.calls, batches: options.batches };
  if (!availability.available) {
    options.log?.(`runtime: skipped (${availability.reason})`);
    return { ...base, status: "skipped", reason: availability.reason, results: [] };
  }
  const outcome = await runChild([childScript, JSON.stringify(options)]);
  if (!outcome.ok) return { ...base, status: "error", reason: outcome.error, results: [] };
  const { perCall, roundTrips } = outcome.value;
  const results = [
    {
      id: "typebox",
      label: "TypeBox tool: session.execute vs direct execute",
      directNs: perCall.typeboxDirect,
      sessionNs: perCall.typeboxSession,
      overheadNs: perCall.typeboxSession - perCall.typeboxDirect,
    },
    {
      id: "zod",
      label: "zod tool: session.execute vs direct execute",
      directNs: perCall.zodDirect,
      sessionNs: perCall.zodSession,
      overheadNs: perCall.zodSession - perCall.zodDirect,
    },
    { id: "push-pop", label: "store.push + store.pop", roundTripNs: roundTrips.pushPop },
    {
      id: "push-resolve",
      label: "store.push + resolve tool (apply)",
      roundTripNs: roundTrips.pushResolveTool,
    },
    {
      id: "push-resolve-session",
      label: "pending.push + session.execute(resolve, apply)",
      roundTripNs: roundTrips.pushResolveSession,
    },
  ];
  return { ...base, status: "ok", results };
}

/** @param {Awaited<ReturnType<typeof runRuntimeBenchmark>>} report */
export function formatRuntimeReport(report) {
  if (report.status !== "ok") return `runtime: ${report.status} (${report.reason})`;
  const us = (/** @type {number} */ ns) => fixed(ns / 1000, 2);
  return markdownTable(
    ["measure", "direct (µs/call)", "via Tooldock (µs/call)", "overhead (µs/call)"],
    report.results.map((row) =>
      "overheadNs" in row
        ? [row.label, us(row.directNs), us(row.sessionNs), us(row.overheadNs)]
        : [row.label, "–", us(row.roundTripNs), "–"],
    ),
  );
}
