// Where the time of an isolated call goes, in figures a noisy machine does not swamp (Linux):
//   node bench/load/call-cost.mjs [--rounds 9] [--calls 400]
//   "$(node scripts/runtimes.mjs node@24)" bench/load/call-cost.mjs
// Measures packages/*/dist (build first). Prints one Markdown table, medians of the rounds:
// - the CPU time of the host's and of the tool host's main thread per isolated
//   `session.execute` (/proc/<pid>/task/<pid>/schedstat: time on a CPU, not waiting for one),
//   and of a bare newline-JSON ping-pong between two Node processes (the floor of any call
//   over two pipes);
// - the wall time of in-process calls of one Session, per kind of tool: one that answers at
//   once, one that answers after an event-loop turn (as a proxy's reply does), and the same
//   with an `AbortSignal` (what a proxy of an isolated tool paid until it heard of a stop
//   through its context instead, `a6c09fe`);
// - the bare ping-pong again, in the load benchmark's window: a fresh pair of processes per
//   run, 50 calls, then the median of 5 batches of 200 (calls 51-1,050), as bench/load/child.mjs
//   times an isolated call right after a load; `--window-runs 7` runs (0: skip). It is the floor
//   of any design that answers over a pipe in that window, before V8 has optimised either side.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packageUrl, resolvePackage } from "../lib/resolve.mjs";
import { fixed, markdownTable, median } from "../lib/stats.mjs";
import { generateTools } from "./generate.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "9" },
    calls: { type: "string", default: "400" },
    "window-runs": { type: "string", default: "7" },
    "window-run": { type: "boolean", default: false },
  },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);

/** CPU time (µs) the main thread of process `pid` has spent so far. */
const cpu = (/** @type {number} */ pid) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1000;

/**
 * Runs each subject's `call` `calls` times per round, the subjects interleaved round by round
 * (so a busy spell of the machine hits them alike). Per subject, per call: the wall µs, and
 * the CPU µs of the main thread of each of its `pids`.
 * @param {Array<{ call: () => Promise<unknown>; pids: number[] }>} subjects
 */
async function measure(subjects) {
  for (const { call } of subjects) for (let index = 0; index < calls; index += 1) await call();
  const samples = subjects.map(({ pids }) => [[], ...pids.map(() => [])]);
  for (let round = 0; round < rounds; round += 1) {
    for (const [subject, { call, pids }] of subjects.entries()) {
      const before = pids.map(cpu);
      const started = performance.now();
      for (let index = 0; index < calls; index += 1) await call();
      const own = /** @type {number[][]} */ (samples[subject]);
      own[0]?.push(((performance.now() - started) * 1000) / calls);
      for (const [index, pid] of pids.entries()) own[index + 1]?.push((cpu(pid) - before[index]) / calls);
    }
  }
  return samples.map((figures) => figures.map(median));
}

/** A child Node process that answers each line of JSON with one, nothing else, and `ping` to it. */
function echoChild() {
  const echo =
    "let b='';process.stdin.setEncoding('utf8').on('data',(d)=>{b+=d;let i;" +
    "while((i=b.indexOf('\\n'))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);" +
    "process.stdout.write(JSON.stringify({t:'pong',id:m.id})+'\\n');}});";
  const child = spawn(process.execPath, ["-e", echo], { stdio: ["pipe", "pipe", "inherit"] });
  /** @type {() => void} */
  let answered = () => {};
  let held = "";
  child.stdout.setEncoding("utf8").on("data", (/** @type {string} */ data) => {
    held += data;
    for (let end = held.indexOf("\n"); end >= 0; end = held.indexOf("\n")) {
      held = held.slice(end + 1);
      answered();
    }
  });
  let id = 0;
  const ping = () =>
    new Promise((resolve) => {
      answered = () => resolve(undefined);
      child.stdin.write(`${JSON.stringify({ t: "ping", id: id++ })}\n`);
    });
  return { child, ping };
}

/** The floor: a line of JSON to a child Node process and its answer back, nothing else. */
async function pingPong() {
  const { child, ping } = echoChild();
  const [figures] = await measure([{ call: ping, pids: [process.pid, /** @type {number} */ (child.pid)] }]);
  child.kill();
  return /** @type {number[]} */ (figures);
}

/**
 * One run of the window (`--window-run`, in a fresh process): the bare ping-pong timed as the
 * load benchmark times a call after a load. Prints the median batch's µs per call.
 */
async function windowRun() {
  const { child, ping } = echoChild();
  for (let index = 0; index < 50; index += 1) await ping();
  const batches = [];
  for (let batch = 0; batch < 5; batch += 1) {
    const started = performance.now();
    for (let index = 0; index < 200; index += 1) await ping();
    batches.push(((performance.now() - started) / 200) * 1000);
  }
  child.kill();
  process.stdout.write(`${median(batches)}\n`);
}

/** The window's runs, each in a fresh process: their median µs per call. */
function pingPongWindow(runs) {
  const figures = [];
  for (let run = 0; run < runs; run += 1) {
    const script = fileURLToPath(import.meta.url);
    const out = execFileSync(process.execPath, [script, "--window-run"], { encoding: "utf8" });
    figures.push(Number(out.trim()));
  }
  return median(figures);
}

if (values["window-run"]) {
  await windowRun();
  process.exit(0);
}

/**
 * A `ping` through the loader's own `ToolHostProcess` (internal: imported from the built
 * file) to an idle tool host: the wire, its checks and the tool host's loop, without a call.
 */
async function toolHostPing() {
  const entry = resolvePackage("@tooldock/loader");
  const { ToolHostProcess } = await import(new URL("isolation/tool-host-process.js", `file://${entry}`).href);
  const folder = await mkdtemp(join(tmpdir(), "tooldock-bench-ping-"));
  const toolHost = new ToolHostProcess({
    execPath: process.execPath,
    nodeVersion: process.versions.node,
    cwd: folder,
    env: { PATH: process.env.PATH ?? "" },
    permissions: { read: ["/"], write: [folder], exec: false, net: false, memoryMb: 512 },
    hangTimeoutMs: 5000,
  });
  const loaded = new Promise((resolve) => {
    toolHost.onMessage = (/** @type {{ t: string }} */ message) =>
      message.t === "loaded" && resolve(undefined);
  });
  toolHost.begin({
    t: "init",
    paths: [folder],
    cwd: folder,
    cacheDir: join(folder, "cache"),
    factoryTimeoutMs: 5000,
    builtInToolNames: [],
    sourceMaps: false,
    hasUI: false,
    allowExec: false,
  });
  await loaded;
  const ping = () => toolHost.request((/** @type {number} */ id) => ({ t: "ping", id })).reply;
  const [figures] = await measure([{ call: ping, pids: [process.pid, toolHost.pid] }]);
  await toolHost.kill({ kind: "closed", reason: "The benchmark is done." });
  await rm(folder, { recursive: true, force: true });
  return /** @type {number[]} */ (figures);
}

/** In-process calls of one Session, per kind of tool (see the header). */
async function sessionCalls() {
  const runtime = await import(packageUrl("@tooldock/runtime"));
  const { Type } = await import(packageUrl("@sinclair/typebox", "loader"));
  const session = new runtime.Session({ cwd: tmpdir() });
  const result = { content: [{ type: "text", text: "6" }] };
  const turn = () => new Promise((resolve) => setImmediate(() => resolve(result)));
  const parameters = Type.Object({ values: Type.Array(Type.Number()) });
  /** @type {Array<[string, string, Function]>} */
  const kinds = [
    ["answers at once", "at-once", async (_id, _params, _onUpdate, _ctx) => result],
    ["after a loop turn", "turn", (_id, _params, _onUpdate, _ctx) => turn()],
    ["after a loop turn, sees its signal", "turn-signal", (_id, _params, _onUpdate, _ctx, _signal) => turn()],
    [
      "after a loop turn, listens on its signal (as a proxy did)",
      "turn-listen",
      (_id, _params, _onUpdate, _ctx, /** @type {AbortSignal} */ signal) => {
        const onAbort = () => {};
        signal.addEventListener("abort", onAbort, { once: true });
        return turn().finally(() => signal.removeEventListener("abort", onAbort));
      },
    ],
  ];
  const subjects = kinds.map(([label, name, execute]) => {
    session.register({ name, label: name, description: label, parameters, execute });
    return {
      call: () => session.execute({ toolCallId: "c", name, params: { values: [1, 2, 3] } }),
      pids: [],
    };
  });
  const figures = await measure(subjects);
  return kinds.map(([label], index) => [
    `in-process tool ${label}`,
    fixed(figures[index]?.[0] ?? Number.NaN),
    "–",
    "–",
  ]);
}

/** Isolated calls of the load benchmark's probe tool, beside the same tool in-process. */
async function isolatedCalls() {
  const loader = await import(packageUrl("@tooldock/loader"));
  const runtime = await import(packageUrl("@tooldock/runtime"));
  const root = await mkdtemp(join(tmpdir(), "tooldock-bench-call-"));
  try {
    const { toolsDir } = await generateTools(root, 1);
    /** @param {boolean} isolated */
    const load = async (isolated) => {
      const session = new runtime.Session({ cwd: toolsDir });
      const host = new loader.ToolHost({ cwd: toolsDir });
      host.setActiveSession(session);
      const loaded = await loader.loadCustomTools({
        paths: [toolsDir],
        cwd: toolsDir,
        host,
        session,
        cacheDir: join(root, isolated ? "cache-isolated" : "cache"),
        ...(isolated ? { isolation: "process" } : {}),
      });
      const name = loaded.tools[0]?.tool.name;
      if (name === undefined) throw new Error(`no tool loaded: ${JSON.stringify(loaded.diagnostics)}`);
      const call = () => session.execute({ toolCallId: "c", name, params: { values: [1, 2, 3] } });
      return { call, isolated: loaded.isolated };
    };
    const inProcess = await load(false);
    const isolated = await load(true);
    const [[inWall] = [], [wall, host, toolHost] = []] = await measure([
      { call: inProcess.call, pids: [] },
      { call: isolated.call, pids: [process.pid, isolated.isolated.pid] },
    ]);
    await isolated.isolated.close();
    return [
      ["in-process probe tool (esbuild)", fixed(inWall), "–", "–"],
      ["isolated probe tool", fixed(wall), fixed(host), fixed(toolHost)],
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const [pingWall, pingHost, pingChild] = await pingPong();
const [toolHostWall, toolHostHost, toolHostChild] = await toolHostPing();
const windowRuns = Number(values["window-runs"]);
const rows = [
  ["ping-pong of two Node processes (floor)", fixed(pingWall), fixed(pingHost), fixed(pingChild)],
  ...(windowRuns > 0
    ? [
        [
          `the same in the load benchmark's window (fresh processes, calls 51-1,050; ${windowRuns === 1 ? "1 run" : `median of ${windowRuns} runs`})`,
          fixed(pingPongWindow(windowRuns)),
          "–",
          "–",
        ],
      ]
    : []),
  [
    "`ping` to an idle tool host (`ToolHostProcess`)",
    fixed(toolHostWall),
    fixed(toolHostHost),
    fixed(toolHostChild),
  ],
  ...(await isolatedCalls()),
  ...(await sessionCalls()),
];
process.stdout.write(
  `Node ${process.version}, ${rounds} rounds of ${calls} calls, medians; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n\n` +
    `${markdownTable(["call", "wall (µs)", "host CPU (µs)", "tool host CPU (µs)"], rows)}\n`,
);
