// One load measurement in a fresh process. Usage (spawned by bench/load/index.mjs):
//   node --expose-gc bench/load/child.mjs <task.json> '{"variant":"…","cacheDir":"…"}'
// (the file holds the module lists, too long for one argument at N = 500; the second argument
// picks the variant).
// The host's own libraries are imported first (a host has them before it loads tools); the clock
// starts just before the first tool module is touched. Prints one JSON line on stdout.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { packageUrl } from "../lib/resolve.mjs";

/**
 * @typedef {{ variant: string; n: number; toolsDir: string; entries: string[]; nativeEntries: string[];
 *   bundledEntries: string[]; cacheDir?: string; profile?: string }} LoadTask
 */

/** @type {LoadTask} */
const task = {
  ...JSON.parse(readFileSync(String(process.argv[2]), "utf8")),
  ...JSON.parse(process.argv[3] ?? "{}"),
};
const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
const collect = () => {
  gc?.();
  gc?.();
};

const importStart = performance.now();
const typebox = await import(packageUrl("@sinclair/typebox"));
const zod = await import(packageUrl("zod"));
const sdk = await import(packageUrl("@tooldock/sdk"));
const isTooldock = task.variant.startsWith("tooldock-");
const isJiti = task.variant.startsWith("jiti-");
const loader = isTooldock ? await import(packageUrl("@tooldock/loader")) : undefined;
const runtime = isTooldock ? await import(packageUrl("@tooldock/runtime")) : undefined;
const { createJiti } = isJiti ? await import(packageUrl("jiti", "loader")) : {};
const importMs = performance.now() - importStart;

const noop = () => {};
/** The `pi` object the floors hand to factories: the host's copies, nothing loaded lazily. */
const pi = {
  cwd: task.toolsDir,
  exec: async () => ({ stdout: "", stderr: "", code: 0, killed: false }),
  logger: { debug: noop, info: noop, warn: noop, error: noop },
  ui: {
    select: async () => undefined,
    confirm: async () => false,
    input: async () => undefined,
    notify: noop,
  },
  hasUI: false,
  typebox,
  zod: zod.z ?? zod,
  pi: sdk,
  pushPendingAction: () => {
    throw new Error("Pending action store unavailable for custom tools in this runtime.");
  },
};

/**
 * The CPU profiler of this process (bench/load/profile.mjs), started just before the clock so
 * the profile covers the load only.
 */
async function startProfiler() {
  const { Session } = await import("node:inspector");
  const { writeFile } = await import("node:fs/promises");
  const session = new Session();
  session.connect();
  /** @param {string} method @param {object} [params] @returns {Promise<any>} */
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 100 });
  await post("Profiler.start");
  return {
    /** @param {string} file */
    async stop(file) {
      const { profile } = await post("Profiler.stop");
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * CPU time of this process's main thread so far (ms), which the machine's load moves far less
 * than wall time (two processes taking turns on a core); `undefined` without Linux's `/proc`.
 */
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** @param {string} file */
const importNative = (file) => import(pathToFileURL(file).href);

/** oxc's output with its map inline, without `sourcesContent`, naming `url` (as the loader's). */
function withInlineMap(/** @type {{ code: string; map: any }} */ output, /** @type {string} */ url) {
  const { sourcesContent: _content, ...map } = output.map;
  const inline = Buffer.from(JSON.stringify({ ...map, sources: [url] })).toString("base64");
  return `${output.code}\n//# sourceMappingURL=data:application/json;base64,${inline}\n`;
}

/** oxc's options in the `oxc-*` variants: Tooldock's (maps on, Node 20 syntax). */
const OXC_OPTIONS = { sourcemap: true, target: "node20" };

/**
 * The file-by-file cold path and nothing else (the `oxc-*` variants): every TypeScript file
 * compiled by oxc and handed to Node by a `module.registerHooks` load hook (Node 22.15+ or
 * 23.5+), its source map inline and source maps on, as Tooldock's defaults have them; `./x.js`
 * finds `./x.ts`. A file compiled ahead (`compiled`, by URL) is served as it is; any other is
 * compiled as it loads. No cache, no checks, no guards. Registered before the clock starts,
 * with oxc imported.
 */
async function registerOxcHooks() {
  const { registerHooks } = /** @type {any} */ (await import("node:module"));
  if (typeof registerHooks !== "function")
    throw new Error(`Node ${process.version} has no module.registerHooks`);
  const oxc = await import(packageUrl("oxc-transform", "loader"));
  /** @type {Map<string, string>} */
  const compiled = new Map();
  process.setSourceMapsEnabled(true);
  registerHooks({
    /** @param {string} specifier @param {any} context @param {any} next */
    resolve(specifier, context, next) {
      const parent = context.parentURL;
      if (parent?.endsWith(".ts") && specifier.startsWith(".") && specifier.endsWith(".js")) {
        const typescript = new URL(`${specifier.slice(0, -3)}.ts`, parent);
        if (existsSync(typescript)) return { url: typescript.href, shortCircuit: true };
      }
      return next(specifier, context);
    },
    /** @param {string} url @param {any} context @param {any} next */
    load(url, context, next) {
      if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
      let source = compiled.get(url);
      if (source === undefined) {
        const path = fileURLToPath(url);
        source = withInlineMap(oxc.transformSync(path, readFileSync(path, "utf8"), OXC_OPTIONS), url);
      }
      return { format: "module", source, shortCircuit: true };
    },
  });
  return { oxc, compiled };
}

/**
 * `oxc-ahead-seq`: every file's compile started at once on oxc's threads (each tool's entry and
 * its `helpers.ts`, known here for free), each module imported, one at a time, as soon as its
 * own files have compiled: compiling overlaps evaluating, as in Tooldock's cold load.
 * @param {Awaited<ReturnType<typeof registerOxcHooks>>} hooks
 * @param {string[]} entries
 */
function compileAhead({ oxc, compiled }, entries) {
  /** @param {string} path */
  const compile = async (path) => {
    const url = pathToFileURL(path).href;
    compiled.set(url, withInlineMap(await oxc.transform(path, readFileSync(path, "utf8"), OXC_OPTIONS), url));
  };
  /** @type {Map<string, Promise<unknown>>} */
  const ready = new Map();
  for (const entry of entries) {
    const files = [entry, join(dirname(entry), "helpers.ts")].filter((file) => existsSync(file));
    ready.set(entry, Promise.all(files.map(compile)));
  }
  return (/** @type {string} */ entry) => ready.get(entry)?.then(() => importNative(entry));
}

/** @param {unknown} module */
function factoryOf(module) {
  let value = /** @type {any} */ (module);
  if (value && typeof value === "object" && "default" in value) value = value.default;
  if (value && typeof value === "object" && "default" in value) value = value.default;
  if (typeof value !== "function") throw new Error("module has no factory");
  return value;
}

/** @type {unknown[]} */
let tools = [];
let firstMs = Number.NaN;
/** @type {Record<string, unknown>} */
const extra = {};

/** @type {any} */
let sessionOfLoad;
/** @type {any} */
let isolatedOfLoad;
// Started ahead and running before the clock starts: what a host that called prestartToolHost
// at its own start has when the load is asked for.
const isolatedOptions = {
  paths: [task.toolsDir],
  cwd: task.toolsDir,
  cacheDir: task.cacheDir,
  isolation: /** @type {const} */ ("process"),
};
if (task.variant === "tooldock-isolated-prestarted") {
  if (typeof loader.prestartToolHost !== "function") throw new Error("this build has no prestartToolHost");
  if (!(await loader.prestartToolHost(isolatedOptions).ready)) throw new Error("the tool host did not start");
}
const oxcHooks = task.variant.startsWith("oxc-") ? await registerOxcHooks() : undefined;
// Node alone: its compile cache (which holds the stripped code too) in the variant's folder,
// empty for `-cold`, filled by a priming run for `-warm`.
if (task.variant.startsWith("node-strip-")) {
  const { enableCompileCache } = /** @type {any} */ (await import("node:module"));
  enableCompileCache(task.cacheDir);
}
const profiler = task.profile ? await startProfiler() : undefined;
collect();
const rssBefore = process.memoryUsage().rss;
const cpuStart = mainThreadCpuMs();
const start = performance.now();

/**
 * Imports every module and calls each factory in order. `concurrent` starts every import at once
 * (Node's ESM loader then reads and links them in parallel) and still calls the factories one by
 * one in discovery order; otherwise each import waits for the previous tool to be ready.
 * @param {(file: string) => Promise<unknown>} importModule
 * @param {string[]} files
 * @param {boolean} concurrent
 */
async function loadEach(importModule, files, concurrent) {
  const started = concurrent ? files.map((file) => importModule(file)) : [];
  for (const [index, file] of files.entries()) {
    const module = concurrent ? await started[index] : await importModule(file);
    const produced = await factoryOf(module)(pi);
    if (tools.length === 0) firstMs = performance.now() - start;
    tools.push(...(Array.isArray(produced) ? produced : [produced]));
  }
}

switch (task.variant) {
  case "native-file":
  case "native-file-seq":
    await loadEach(importNative, task.nativeEntries, task.variant === "native-file");
    break;
  case "native-bundle":
  case "native-bundle-seq":
    await loadEach(importNative, task.bundledEntries, task.variant === "native-bundle");
    break;
  case "oxc-hooks":
  case "oxc-hooks-seq":
    await loadEach(importNative, task.entries, task.variant === "oxc-hooks");
    break;
  case "node-strip-warm":
  case "node-strip-cold":
    await loadEach(importNative, task.entries, true);
    break;
  case "oxc-ahead-seq":
    await loadEach(compileAhead(/** @type {any} */ (oxcHooks), task.entries), task.entries, false);
    break;
  case "jiti-nocache":
  case "jiti-fscache": {
    const jiti = createJiti(import.meta.url, {
      fsCache: task.variant === "jiti-fscache" ? task.cacheDir : false,
      moduleCache: true,
    });
    await loadEach((file) => jiti.import(file), task.entries, false);
    break;
  }
  case "tooldock-esbuild-cold":
  case "tooldock-esbuild-warm":
  case "tooldock-jiti-cold":
  case "tooldock-jiti-warm":
  case "tooldock-isolated-warm":
  case "tooldock-isolated-prestarted": {
    const session = new runtime.Session({ cwd: task.toolsDir });
    const host = new loader.ToolHost({ cwd: task.toolsDir });
    host.setActiveSession(session);
    const isolated = task.variant.startsWith("tooldock-isolated");
    const result = await loader.loadCustomTools({
      ...isolatedOptions,
      host,
      session,
      compiler: task.variant.startsWith("tooldock-jiti") ? "jiti" : "esbuild",
      isolation: isolated ? "process" : "none",
      /** @param {any} progress */
      onProgress(progress) {
        if (Number.isNaN(firstMs) && isToolReady(progress, session)) firstMs = performance.now() - start;
      },
    });
    tools = result.tools.map((/** @type {any} */ loaded) => loaded.tool);
    sessionOfLoad = session;
    isolatedOfLoad = result.isolated;
    extra.diagnostics = result.diagnostics.length;
    if (result.diagnostics.length > 0) extra.firstDiagnostic = result.diagnostics[0];
    break;
  }
  default:
    throw new Error(`unknown variant ${task.variant}`);
}

const allMs = performance.now() - start;
const cpuEnd = mainThreadCpuMs();
if (profiler) await profiler.stop(String(task.profile));
if (Number.isNaN(firstMs)) extra.firstMsMissing = true;
collect();
const rssAfter = process.memoryUsage().rss;

/**
 * A `LoadProgress` of a module whose tool the host can use now: registered in the session.
 * Before issue 15 the loader registered tools only when the batch ended, so older checkouts
 * never pass here and their first-ready time is the whole load's.
 * @param {any} progress
 * @param {any} session
 */
function isToolReady(progress, session) {
  const tools = progress?.tools;
  if (!Array.isArray(tools) || tools.length === 0) return false;
  return session.get(tools[0].tool.name) !== undefined;
}

// Correctness: every tool is there and works (after the clock stopped).
const names = new Set(tools.map((/** @type {any} */ tool) => tool.name));
const probe = /** @type {any} */ (tools[0]);
const probeResult = probe
  ? await probe.execute("probe", { values: [1, 2, 3] }, undefined, {
      sessionId: "bench",
      cwd: task.toolsDir,
      hasPendingActions: () => false,
      abort: noop,
    })
  : undefined;

// A call through the session, after the clock stopped: what a host pays per tool call (for an
// isolated load, a round trip to the tool host), the median of 5 batches of 200.
if (sessionOfLoad !== undefined && probe !== undefined && task.measureCalls !== false) {
  const call = () =>
    sessionOfLoad.execute({ toolCallId: "c", name: probe.name, params: { values: [1, 2, 3] } });
  for (let index = 0; index < 50; index += 1) await call();
  const batches = [];
  for (let batch = 0; batch < 5; batch += 1) {
    const started = performance.now();
    for (let index = 0; index < 200; index += 1) await call();
    batches.push(((performance.now() - started) / 200) * 1000);
  }
  extra.callUs = batches.sort((a, b) => a - b)[2];
}
await isolatedOfLoad?.close();

process.stdout.write(
  `${JSON.stringify({
    variant: task.variant,
    node: process.version,
    n: task.n,
    tools: tools.length,
    uniqueNames: names.size,
    probeOk: probeResult?.content?.[0]?.text?.includes("sum") === true,
    importMs,
    firstMs: Number.isNaN(firstMs) ? allMs : firstMs,
    allMs,
    mainCpuMs: cpuStart === undefined || cpuEnd === undefined ? undefined : cpuEnd - cpuStart,
    rssBefore,
    rssAfter,
    ...extra,
  })}\n`,
);
