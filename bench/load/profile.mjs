#!/usr/bin/env node
// Profiles one load variant: generates N tools, fills the caches, runs the measurement child
// with the CPU profiler on from "start loading" to "all ready", and prints where the time went (self time by function and by package).
//   node bench/load/profile.mjs <variant> [n] [--top 25] [--node 24|PATH] [--keep] [--smoke]
// `--smoke` (the test suite's) skips the wait that lets the warm cache's inputs age.
// `--node` profiles under another Node, as in bench/run.mjs.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runChild } from "../lib/child.mjs";
import { currentNode, resolveChildNode } from "../lib/node.mjs";
import { summarizeProfile } from "../lib/profile-summary.mjs";
import { generateTools } from "./generate.mjs";
import { compileFloors } from "./prepare.mjs";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: "string", default: "25" },
    keep: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
    node: { type: "string" },
  },
});
const node = values.node
  ? await resolveChildNode(values.node, (line) => process.stderr.write(`${line}\n`))
  : currentNode();
const childOptions = { execPath: node.execPath };
const [variant = "tooldock-esbuild-warm", size = "500"] = positionals;
const n = Number(size);
const childScript = fileURLToPath(new URL("./child.mjs", import.meta.url));

const root = await mkdtemp(join(tmpdir(), "tooldock-bench-profile-"));
try {
  const generated = await generateTools(root, n);
  const floors = await compileFloors({ root, ...generated });
  const cacheDir = join(root, "cache");
  const taskFile = join(root, "task.json");
  await writeFile(taskFile, JSON.stringify({ ...generated, ...floors, n }));
  const pick = { variant, cacheDir };
  if (!variant.endsWith("-cold")) {
    const prime = () => runChild(["--expose-gc", childScript, taskFile, JSON.stringify(pick)], childOptions);
    await prime();
    // Files changed less than 2 s before the cache recorded them get no stat fingerprint, so the
    // first warm run hashes them and writes fresh fingerprints: prime again once they are older,
    // so the profile shows the steady state a host sees from its second start on.
    if (!values.smoke) {
      await new Promise((done) => setTimeout(done, 2_100));
      await prime();
    }
  }
  const profileFile = join(root, "load.cpuprofile");
  const outcome = await runChild(
    ["--expose-gc", childScript, taskFile, JSON.stringify({ ...pick, profile: profileFile })],
    childOptions,
  );
  if (!outcome.ok) throw new Error(outcome.error);
  const profile = JSON.parse(await readFile(profileFile, "utf8"));
  console.log(
    `${variant}, N=${n}, Node ${node.version}: all ready ${outcome.value.allMs.toFixed(1)} ms, first ${outcome.value.firstMs.toFixed(1)} ms`,
  );
  console.log(summarizeProfile(profile, Number(values.top)));
  if (values.keep) console.log(`profile kept in ${profileFile} (open it in Chrome DevTools)`);
} finally {
  if (!values.keep) await rm(root, { recursive: true, force: true });
}
