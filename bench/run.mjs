#!/usr/bin/env node
// Entry point of `pnpm bench`:
//   node bench/run.mjs [load] [runtime] [cli] [pending] [--smoke] [--json] [--out FILE]
//                      [--sizes 10,100,500] [--runs 5] [--variants a,b] [--keep] [--node 24|PATH]
//                      [--strippable]
// With no benchmark named, runs all four. `--node` runs every measured child under another Node
// (a version is installed from the npm registry by scripts/runtimes.mjs, once per user). `--smoke` runs tiny sizes once each (used by the
// test suite); `--json` prints the JSON report instead of Markdown; `--out` also writes it to FILE.
// Progress goes to stderr.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { formatCliReport, runCliBenchmark } from "./cli/index.mjs";
import { describeMachine } from "./lib/machine.mjs";
import { currentNode, resolveChildNode } from "./lib/node.mjs";
import { evaluateTargets, formatTargets } from "./lib/targets.mjs";
import { formatLoadReport, runLoadBenchmark } from "./load/index.mjs";
import { formatPendingReport, runPendingBenchmark } from "./pending/index.mjs";
import { formatRuntimeReport, runRuntimeBenchmark } from "./runtime/index.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    smoke: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    out: { type: "string" },
    sizes: { type: "string" },
    runs: { type: "string" },
    variants: { type: "string" },
    keep: { type: "boolean", default: false },
    node: { type: "string" },
    strippable: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  process.stdout.write(
    [
      "usage: node bench/run.mjs [load] [runtime] [cli] [pending] [options]   (measures packages/*/dist: build first)",
      "  no benchmark named: all four (4-13 min on 2 cores); Markdown on stdout, progress on stderr",
      "  pending: durable pending-action stores (memory, SQLite, PostgreSQL; 1 and 8 clients); starts a",
      "           private PostgreSQL server when Debian's postgresql is installed; SQLite uses node:sqlite",
      "           (Node 22.13+), else better-sqlite3 (skipped when neither loads; --node 24 measures node:sqlite)",
      "  --smoke            tiny sizes, one run each (what the test suite runs)",
      "  --json             print the JSON report instead of Markdown",
      "  --out FILE         also write the JSON report (every sample) to FILE",
      "  --sizes 10,100,500 tool counts of the load benchmark (also 1000, 2000; see bench/load/stages.mjs)",
      "  --runs 5           rounds of the load benchmark (the CLI runs max(runs, 10) times, pending",
      "                     max(runs, 11) rounds of about 0.5 s per store and concurrency)",
      "  --variants a,b     load variants to run (ids in BENCHMARKS.md)",
      "  --strippable       generate the load benchmark's tools as Node's type stripping takes them (no",
      "                     enums, `.ts` import paths) and measure Node alone (`node-strip-*`, Node 22.18+)",
      "  --keep             keep the generated tool folders",
      "  --node 24|PATH     run every measured child (load variants, runtime, cli, pending) under this Node: a version",
      "                     (24, 24.22.3, node@24; installed once from the npm registry into the per-user",
      "                     runtime cache by scripts/runtimes.mjs) or the path of a node binary; default:",
      "                     the Node running this script. The report names the version that ran them",
      "",
    ].join("\n"),
  );
  process.exit(0);
}

const known = ["load", "runtime", "cli", "pending"];
const unknown = positionals.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark ${unknown.join(", ")}; pick from ${known.join(", ")}\n`);
  process.exit(2);
}
const selected = positionals.length > 0 ? positionals : known;
const smoke = values.smoke;
const runs = values.runs ? Number(values.runs) : smoke ? 1 : 5;
const sizes = values.sizes ? values.sizes.split(",").map(Number) : smoke ? [3] : [10, 100, 500];
const log = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

let node = currentNode();
if (values.node) {
  try {
    node = await resolveChildNode(values.node, log);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  log(`bench: measured children run under Node ${node.version} (${node.execPath})`);
}

const started = Date.now();
/** @type {Record<string, any>} */
const report = {
  machine: { ...describeMachine(), childNode: node.version, childExecPath: node.execPath },
  smoke,
  benchmarks: {},
};
const sections = [];
if (selected.includes("load")) {
  const variants = values.variants?.split(",");
  const load = await runLoadBenchmark({
    sizes,
    runs,
    variants,
    log,
    keep: values.keep,
    parallel: smoke ? 4 : 1,
    node,
    strippable: values.strippable,
  });
  report.benchmarks.load = load;
  sections.push(`## load\n\n${formatLoadReport(load)}`);
}
if (selected.includes("runtime")) {
  const runtime = await runRuntimeBenchmark({
    calls: smoke ? 200 : 20_000,
    batches: smoke ? 2 : 15,
    log,
    node,
  });
  report.benchmarks.runtime = runtime;
  sections.push(`## runtime\n\n${formatRuntimeReport(runtime)}`);
}
if (selected.includes("cli")) {
  const cli = await runCliBenchmark({ runs: smoke ? 1 : Math.max(runs, 10), log, node });
  report.benchmarks.cli = cli;
  sections.push(`## cli\n\n${formatCliReport(cli)}`);
}
if (selected.includes("pending")) {
  const pending = await runPendingBenchmark({
    cycles: smoke ? 20 : 200,
    rounds: smoke ? 1 : Math.max(runs, 11),
    roundMs: smoke ? 0 : 500,
    log,
    node,
  });
  report.benchmarks.pending = pending;
  sections.push(`## pending\n\n${formatPendingReport(pending)}`);
}
report.durationMs = Date.now() - started;
// A smoke run's figures say nothing (tiny sizes, one run): no verdict on the targets.
if (!smoke) {
  report.targets = evaluateTargets(report);
  if (selected.length === known.length) sections.push(`## targets\n\n${formatTargets(report.targets)}`);
}

const machine = report.machine;
const nodes =
  machine.childNode === machine.node
    ? `Node ${machine.node}`
    : `Node ${machine.childNode} for the measured children (${machine.childExecPath}), Node ${machine.node} running them`;
const header = `# Tooldock benchmarks\n\n${machine.cpus} CPUs (${machine.cpuModel}), ${nodes}, load average ${machine.loadAverage.join(" ")}, ${machine.date}`;
if (values.out) await writeFile(values.out, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : `${header}\n\n${sections.join("\n\n")}\n`);
