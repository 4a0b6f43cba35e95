// bench/load: time to load N generated tool modules, in a fresh process per measurement,
// variants interleaved round by round (A B C … then … C B A), median of the runs.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runChild } from "../lib/child.mjs";
import { currentNode } from "../lib/node.mjs";
import { packageUrl } from "../lib/resolve.mjs";
import { fixed, markdownTable, median, ratio } from "../lib/stats.mjs";
import { generateTools } from "./generate.mjs";
import { compileFloors } from "./prepare.mjs";

const childScript = fileURLToPath(new URL("./child.mjs", import.meta.url));

/**
 * Every variant, floors first. `maxN`: the slowest baselines (seconds per run at N = 100) are
 * measured up to that size only, to keep a full run bounded; no target reads them at N = 500.
 */
export const LOAD_VARIANTS = [
  { id: "native-file", label: "native import(), one .mjs per source file (floor)", tooldock: false },
  { id: "native-bundle", label: "native import(), one pre-bundled .mjs per tool", tooldock: false },
  { id: "native-file-seq", label: "native import(), per source file, one at a time", tooldock: false },
  { id: "native-bundle-seq", label: "native import(), pre-bundled, one at a time", tooldock: false },
  {
    id: "oxc-hooks",
    label: "oxc per source file in module hooks, maps inline, no cache (Node 22.15+ / 23.5+)",
    tooldock: false,
    registerHooks: true,
  },
  {
    id: "oxc-hooks-seq",
    label: "oxc per source file in module hooks, one module at a time (as Tooldock evaluates)",
    tooldock: false,
    registerHooks: true,
  },
  {
    id: "oxc-ahead-seq",
    label: "oxc per source file, all compiled ahead on oxc's threads, one module at a time",
    tooldock: false,
    registerHooks: true,
  },
  {
    id: "node-strip-warm",
    label: "Node alone: import() of the .ts sources (type stripping), all at once, compile cache warm",
    tooldock: false,
    typeStripping: true,
  },
  {
    id: "node-strip-cold",
    label: "Node alone: import() of the .ts sources (type stripping), all at once, compile cache empty",
    tooldock: false,
    typeStripping: true,
  },
  { id: "tooldock-esbuild-warm", label: "Tooldock, esbuild, warm cache", tooldock: true },
  { id: "tooldock-esbuild-cold", label: "Tooldock, esbuild, cold cache", tooldock: true },
  { id: "tooldock-jiti-warm", label: "Tooldock, jiti, warm cache", tooldock: true, maxN: 100 },
  {
    id: "tooldock-isolated-warm",
    label: "Tooldock, isolated tool host (a child under the permission model), warm cache",
    tooldock: true,
  },
  {
    id: "tooldock-isolated-prestarted",
    label: "Tooldock, isolated, the tool host started ahead of the load (prestartToolHost), warm cache",
    tooldock: true,
  },
  { id: "tooldock-jiti-cold", label: "Tooldock, jiti, cold cache", tooldock: true, maxN: 10 },
  { id: "jiti-fscache", label: "jiti 2 alone, fs cache warm", tooldock: false, maxN: 100 },
  { id: "jiti-nocache", label: "jiti 2 alone, no cache", tooldock: false, maxN: 100 },
];
export const FLOOR = "native-file";

/**
 * Whether Node `version` (`v22.15.0`) has `module.registerHooks` (22.15+, 23.5+).
 * @param {string} version
 */
function hasRegisterHooks(version) {
  const [major = 0, minor = 0] = version.slice(1).split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 15);
}

/**
 * Whether Node `version` strips types by default (22.18+, 23.6+): the `node-strip-*` variants.
 * @param {string} version
 */
function hasTypeStripping(version) {
  const [major = 0, minor = 0] = version.slice(1).split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

/**
 * Runs `task` over `items`, at most `limit` at a time (one at a time by default), in order.
 * @template T
 * @param {T[]} items
 * @param {number | undefined} limit
 * @param {(item: T) => Promise<void>} task
 */
async function inParallel(items, limit = 1, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

/** Can the built Tooldock packages load tools yet? */
async function tooldockAvailability() {
  try {
    const loader = await import(packageUrl("@tooldock/loader"));
    const runtime = await import(packageUrl("@tooldock/runtime"));
    const missing = [
      typeof loader.loadCustomTools === "function" ? "" : "loadCustomTools",
      typeof loader.ToolHost === "function" ? "" : "ToolHost",
      typeof runtime.Session === "function" ? "" : "Session",
    ].filter(Boolean);
    return missing.length === 0
      ? { available: true, reason: "" }
      : { available: false, reason: `not built yet: packages/*/dist lacks ${missing.join(", ")}` };
  } catch (error) {
    return { available: false, reason: `cannot import the built packages: ${String(error)}` };
  }
}

/**
 * `parallel` > 1 runs that many measurements at once: only for the smoke run, whose figures are
 * not read (a real run measures one process at a time). `node`: the Node binary every child
 * (priming and measuring) runs under, default the one running this (`--node` of bench/run.mjs).
 * `strippable` generates the tools as Node's type stripping takes them (no enums, `.ts` import
 * paths) and measures the `node-strip-*` variants: what Node does alone, which Tooldock must not
 * be slower than (issue 24). Without it those variants are skipped: Node refuses an enum.
 * @param {{ sizes: number[]; runs: number; variants?: string[]; parallel?: number; log?: (line: string) => void;
 *   keep?: boolean; node?: import("../lib/node.mjs").ChildNode; strippable?: boolean }} options
 */
export async function runLoadBenchmark(options) {
  const log = options.log ?? (() => {});
  const node = options.node ?? currentNode();
  const childOptions = { execPath: node.execPath };
  const tooldock = await tooldockAvailability();
  if (!tooldock.available) log(`load: Tooldock rows skipped (${tooldock.reason})`);
  const variants = LOAD_VARIANTS.filter(
    (variant) =>
      (tooldock.available || !variant.tooldock) &&
      (options.variants === undefined || variant.id === FLOOR || options.variants.includes(variant.id)),
  );
  const root = await mkdtemp(join(tmpdir(), "tooldock-bench-load-"));
  /** @type {any[]} */
  const results = [];
  try {
    for (const n of options.sizes) {
      const dir = join(root, `n${n}`);
      const generated = await generateTools(dir, n, { strippable: options.strippable });
      const floors = await compileFloors({ root: dir, ...generated });
      const taskFile = join(dir, "task.json");
      await writeFile(
        taskFile,
        JSON.stringify({ n, toolsDir: generated.toolsDir, entries: generated.entries, ...floors }),
      );
      const warmCache = {
        "jiti-fscache": join(dir, "cache-jiti"),
        "tooldock-esbuild-warm": join(dir, "cache-tooldock"),
        "tooldock-jiti-warm": join(dir, "cache-tooldock-jiti"),
        "tooldock-isolated-warm": join(dir, "cache-tooldock-isolated"),
        "tooldock-isolated-prestarted": join(dir, "cache-tooldock-isolated"),
        "node-strip-warm": join(dir, "cache-node-strip"),
      };
      const hooks = hasRegisterHooks(node.version);
      const stripping = options.strippable === true && hasTypeStripping(node.version);
      const measured = variants.filter(
        (variant) =>
          (variant.maxN === undefined || n <= variant.maxN) &&
          (hooks || variant.registerHooks !== true) &&
          (stripping || variant.typeStripping !== true),
      );
      /** @type {Record<string, { runs: any[]; errors: string[] }>} */
      const samples = Object.fromEntries(measured.map((variant) => [variant.id, { runs: [], errors: [] }]));

      // Setup, not timed: fill the warm caches once.
      /** @type {Array<[string, string[]]>} */
      const primers = [
        ["jiti-fscache", ["jiti-fscache"]],
        ["tooldock-esbuild-warm", ["tooldock-esbuild-warm"]],
        ["tooldock-jiti-warm", ["tooldock-jiti-warm"]],
        ["tooldock-isolated-warm", ["tooldock-isolated-warm", "tooldock-isolated-prestarted"]],
        ["node-strip-warm", ["node-strip-warm"]],
      ];
      await inParallel(primers, options.parallel, async ([variant, users]) => {
        const waiting = users.filter((user) => samples[user]);
        if (waiting.length === 0) return;
        const cacheDir = warmCache[/** @type {keyof typeof warmCache} */ (variant)];
        const primed = await runChild(
          ["--expose-gc", childScript, taskFile, JSON.stringify({ variant, cacheDir })],
          childOptions,
        );
        if (primed.ok) return;
        for (const user of waiting) samples[user].errors.push(`priming the cache failed: ${primed.error}`);
      });

      for (let round = 0; round < options.runs; round += 1) {
        const order = round % 2 === 0 ? measured : [...measured].reverse();
        await inParallel(order, options.parallel, async (variant) => {
          const sample = samples[variant.id];
          if (sample.errors.length > 0 && sample.runs.length === 0 && round > 0) return;
          let cacheDir = warmCache[/** @type {keyof typeof warmCache} */ (variant.id)];
          const fresh = variant.id.endsWith("-cold");
          if (fresh) cacheDir = await mkdtemp(join(dir, `cache-${variant.id}-`));
          const outcome = await runChild(
            ["--expose-gc", childScript, taskFile, JSON.stringify({ variant: variant.id, cacheDir })],
            childOptions,
          );
          if (fresh && cacheDir) await rm(cacheDir, { recursive: true, force: true });
          if (!outcome.ok) {
            sample.errors.push(outcome.error);
            return;
          }
          const value = outcome.value;
          const problem =
            value.node !== node.version
              ? `the child ran under Node ${value.node}, not ${node.version}`
              : value.tools !== n
                ? `loaded ${value.tools} of ${n} tools${value.firstDiagnostic ? `; first diagnostic: ${JSON.stringify(value.firstDiagnostic)}` : ""}`
                : value.uniqueNames !== n
                  ? "tool names are not unique"
                  : !value.probeOk
                    ? "the probe call of the first tool failed"
                    : "";
          if (problem) sample.errors.push(problem);
          else sample.runs.push({ ...value, processMs: outcome.wallMs });
        });
        log(`load: N=${n} round ${round + 1}/${options.runs} done`);
      }

      const floorAll = median(samples[FLOOR].runs.map((run) => run.allMs));
      for (const variant of variants) {
        if (!samples[variant.id]) {
          results.push({
            n,
            variant: variant.id,
            label: variant.label,
            status: "skipped",
            reason:
              variant.registerHooks === true && !hooks
                ? `needs module.registerHooks (Node 22.15+ or 23.5+), which Node ${node.version} does not have`
                : variant.typeStripping === true && !options.strippable
                  ? "needs --strippable (the generated tools use enums, which Node's type stripping refuses)"
                  : variant.typeStripping === true
                    ? `needs type stripping on by default (Node 22.18+ or 23.6+), which Node ${node.version} does not have`
                    : `measured up to N = ${variant.maxN} only (seconds per run; keeps a full run bounded)`,
            runs: 0,
            errors: [],
          });
          continue;
        }
        const { runs, errors } = samples[variant.id];
        const allMs = median(runs.map((run) => run.allMs));
        results.push({
          n,
          variant: variant.id,
          label: variant.label,
          status: runs.length > 0 ? "ok" : "error",
          runs: runs.length,
          errors: errors.slice(0, 3),
          median: {
            allMs,
            firstMs: median(runs.map((run) => run.firstMs)),
            rssPerToolKb: median(runs.map((run) => (run.rssAfter - run.rssBefore) / n / 1024)),
            importMs: median(runs.map((run) => run.importMs)),
            processMs: median(runs.map((run) => run.processMs)),
            callUs: median(runs.map((run) => run.callUs ?? Number.NaN)),
            mainCpuMs: median(runs.map((run) => run.mainCpuMs ?? Number.NaN)),
          },
          ratioToFloor: allMs / floorAll,
          firstReported: runs.every((run) => !run.firstMsMissing),
          samples: runs.map((run) => ({ allMs: run.allMs, firstMs: run.firstMs })),
        });
        const row = results.at(-1);
        log(
          `load: N=${n} ${variant.id}: all ${fixed(row.median.allMs)} ms, first ${fixed(row.median.firstMs)} ms, ${ratio(row.ratioToFloor)}${errors.length ? `, errors: ${errors[0]?.slice(0, 200)}` : ""}`,
        );
      }
    }
  } finally {
    if (!options.keep) await rm(root, { recursive: true, force: true });
  }
  return {
    benchmark: "load",
    floor: FLOOR,
    sizes: options.sizes,
    runsPerVariant: options.runs,
    strippable: options.strippable === true,
    node: { version: node.version, execPath: node.execPath },
    tooldock,
    results,
  };
}

/** @param {Awaited<ReturnType<typeof runLoadBenchmark>>} report */
export function formatLoadReport(report) {
  const rows = report.results.map((row) =>
    row.status === "skipped"
      ? [row.n, row.label, "not measured", "–", "–", "–", "–", "–", "–"]
      : [
          row.n,
          row.label,
          row.status === "ok" ? fixed(row.median.allMs) : `error: ${row.errors[0] ?? ""}`.slice(0, 120),
          row.status === "ok" ? `${fixed(row.median.firstMs)}${row.firstReported ? "" : " (= all)"}` : "–",
          fixed(row.median.rssPerToolKb),
          ratio(row.ratioToFloor),
          fixed(row.median.importMs),
          Number.isNaN(row.median.callUs) ? "–" : fixed(row.median.callUs),
          Number.isNaN(row.median.mainCpuMs) ? "–" : fixed(row.median.mainCpuMs),
        ],
  );
  const table = markdownTable(
    [
      "N",
      "variant",
      "all ready (ms)",
      "first ready (ms)",
      "RSS/tool (KB)",
      "× floor",
      "host imports (ms)",
      "session.execute (µs)",
      "main-thread CPU (ms)",
    ],
    rows,
  );
  return `Measured children ran under Node ${report.node.version} (${report.node.execPath}).\n\n${table}`;
}
