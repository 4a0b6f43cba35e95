#!/usr/bin/env node
// How each of the loader's four stages grows with the number of modules (issue 15): for each
// N, generates N tools, then runs bench/load/stages-child.mjs in a fresh process, cold (empty
// cache) and warm (the cache that run filled), `runs` times each, interleaved, and prints the
// median time of each stage and its cost per module. A stage that grows linearly keeps its
// cost per module flat as N grows; a quadratic one doubles it with each doubling of N.
// Measures packages/*/dist: build first.
//   node bench/load/stages.mjs [--sizes 100,500,1000,2000] [--runs 3] [--smoke]
// `--smoke` (the test suite's) skips the wait that lets the warm cache's inputs age: the warm
// runs then hash their inputs, as a host's first warm start does.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runChild } from "../lib/child.mjs";
import { fixed, markdownTable, median } from "../lib/stats.mjs";
import { generateTools } from "./generate.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,500,1000,2000" },
    runs: { type: "string", default: "3" },
    smoke: { type: "boolean", default: false },
  },
});
const sizes = String(values.sizes).split(",").map(Number);
const runs = Number(values.runs);
const child = fileURLToPath(new URL("./stages-child.mjs", import.meta.url));
const STAGES = ["discover", "build", "evaluate", "accept", "register"];

const root = await mkdtemp(join(tmpdir(), "tooldock-bench-stages-"));
/** @type {string[][]} */
const rows = [];
try {
  for (const n of sizes) {
    const { toolsDir } = await generateTools(join(root, `n${n}`), n);
    const warmCache = join(root, `n${n}`, "cache-warm");
    /** @type {Record<string, Array<Record<string, number>>>} */
    const samples = { cold: [], warm: [] };
    const measure = async (/** @type {"cold" | "warm"} */ kind) => {
      const cacheDir = kind === "warm" ? warmCache : await mkdtemp(join(root, `n${n}`, "cache-cold-"));
      const outcome = await runChild([child, toolsDir, cacheDir], { timeoutMs: 600_000 });
      if (kind === "cold") await rm(cacheDir, { recursive: true, force: true });
      if (!outcome.ok) throw new Error(`stages N=${n} ${kind}: ${outcome.error}`);
      if (outcome.value.tools !== n)
        throw new Error(`stages N=${n} ${kind}: ${outcome.value.tools} of ${n} tools`);
      samples[kind].push(outcome.value.times);
    };
    // Fill the warm cache, then let its inputs age past the 2 s "racily clean" window so the
    // warm runs read fingerprints instead of hashing (what a host sees from its second start on).
    await measure("cold");
    samples.cold.length = 0;
    await measure("warm");
    if (!values.smoke) await new Promise((done) => setTimeout(done, 2_100));
    samples.warm.length = 0;
    for (let round = 0; round < runs; round++) {
      for (const kind of /** @type {const} */ (round % 2 === 0 ? ["cold", "warm"] : ["warm", "cold"]))
        await measure(kind);
    }
    for (const kind of /** @type {const} */ (["cold", "warm"])) {
      const cells = STAGES.map((stage) => {
        const ms = median(samples[kind].map((times) => times[stage] ?? Number.NaN));
        return `${fixed(ms)} (${fixed((ms * 1000) / n, 0)})`;
      });
      rows.push([String(n), kind, ...cells]);
    }
    process.stderr.write(`stages: N=${n} done\n`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
process.stdout.write(
  `${markdownTable(["N", "cache", ...STAGES.map((stage) => `${stage} ms (µs/module)`)], rows)}\n`,
);
