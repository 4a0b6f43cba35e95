// bench/cli: whole-process wall time of `tooldock list` on the examples against `node -e ''`
// (the Node start-up floor), interleaved run by run, after an untimed run that checks the output
// and warms Tooldock's compile cache.
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnNode } from "../lib/child.mjs";
import { repoRoot } from "../lib/resolve.mjs";
import { fixed, markdownTable, median, ratio } from "../lib/stats.mjs";

const cliDir = join(repoRoot, "packages", "cli");
/** The executable `tooldock` runs: the `bin` of packages/cli/package.json (the bundle). */
const bin = join(cliDir, JSON.parse(readFileSync(join(cliDir, "package.json"), "utf8")).bin.tooldock);
const examples = join(repoRoot, "packages", "examples", "tools");

const COMMANDS = [
  { id: "node-e", label: "node -e ''", args: ["-e", ""] },
  {
    id: "tooldock-list",
    label: "tooldock list packages/examples/tools (warm cache)",
    args: [bin, "list", examples],
  },
];

/**
 * `node`: the Node binary both commands run under (default the one running this).
 * @param {{ runs: number; log?: (line: string) => void; node?: import("../lib/node.mjs").ChildNode }} options
 */
export async function runCliBenchmark(options) {
  const execPath = options.node?.execPath;
  const base = {
    benchmark: "cli",
    runs: options.runs,
    floor: "node-e",
    node: options.node?.version ?? process.version,
  };
  const missing = [
    !existsSync(bin) && relative(repoRoot, bin),
    !existsSync(examples) && "packages/examples/tools",
  ]
    .filter(Boolean)
    .join(", ");
  if (missing) {
    const reason = `not built yet: ${missing} missing`;
    options.log?.(`cli: skipped (${reason})`);
    return { ...base, status: "skipped", reason, results: [] };
  }

  // Setup: check the command works and warm its cache.
  const check = await spawnNode([bin, "list", examples, "--json"], { cwd: repoRoot, execPath });
  /** @type {any} */
  let listed;
  try {
    listed = JSON.parse(check.stdout);
  } catch {
    listed = undefined;
  }
  if (check.code !== 0 || !listed || !Array.isArray(listed.tools) || listed.tools.length === 0) {
    const reason = `tooldock list --json failed (exit ${check.code}): ${(check.stderr || check.stdout).slice(-400)}`;
    return { ...base, status: "error", reason, results: [] };
  }

  /** @type {Record<string, number[]>} */
  const samples = Object.fromEntries(COMMANDS.map((command) => [command.id, []]));
  /** @type {string[]} */
  const errors = [];
  for (let round = 0; round < options.runs; round += 1) {
    for (const command of round % 2 === 0 ? COMMANDS : [...COMMANDS].reverse()) {
      const outcome = await spawnNode(command.args, { cwd: repoRoot, execPath });
      if (outcome.code === 0) samples[command.id].push(outcome.wallMs);
      else errors.push(`${command.label}: exit ${outcome.code}: ${outcome.stderr.slice(-300)}`);
    }
  }
  const floor = median(samples["node-e"]);
  const results = COMMANDS.map((command) => {
    const wallMs = median(samples[command.id]);
    return {
      id: command.id,
      label: command.label,
      runs: samples[command.id].length,
      wallMs,
      ratioToFloor: wallMs / floor,
    };
  });
  return {
    ...base,
    status: errors.length === 0 ? "ok" : "error",
    reason: errors[0] ?? "",
    tools: listed.tools.length,
    modules: listed.summary?.modules,
    results,
  };
}

/** @param {Awaited<ReturnType<typeof runCliBenchmark>>} report */
export function formatCliReport(report) {
  if (report.results.length === 0) return `cli: ${report.status} (${report.reason})`;
  return markdownTable(
    ["command", "wall time (ms)", "× node -e ''"],
    report.results.map((row) => [row.label, fixed(row.wallMs), ratio(row.ratioToFloor)]),
  );
}
