// bench/runtime, measured in a fresh process: per-call cost of `session.execute` against a
// direct call of the tool's `execute`, for a TypeBox and a zod tool; push + resolve round trips.
// Usage: node bench/runtime/child.mjs '{"calls":20000,"batches":15,"afterLoad":false}'
// With `afterLoad`, the process first loads one generated tool module through the built
// `loadCustomTools`, as a host does before it runs tool calls.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { packageUrl } from "../lib/resolve.mjs";
import { median } from "../lib/stats.mjs";
import { generateTools } from "../load/generate.mjs";

const { calls, batches, afterLoad = false } = JSON.parse(process.argv[2] ?? "{}");
const { Type } = await import(packageUrl("@sinclair/typebox"));
const { z } = await import(packageUrl("zod"));
const runtime = await import(packageUrl("@tooldock/runtime"));

if (afterLoad) {
  const { loadCustomTools } = await import(packageUrl("@tooldock/loader"));
  const root = await mkdtemp(join(tmpdir(), "tooldock-bench-runtime-"));
  try {
    const { toolsDir } = await generateTools(root, 1);
    const loaded = await loadCustomTools({ paths: [toolsDir], cwd: root, cacheDir: join(root, "cache") });
    if (loaded.tools.length !== 1) throw new Error(`loadCustomTools loaded ${loaded.tools.length} of 1 tool`);
    await loaded.cached; // Node 22.15+ writes a cold load's packs after it returns: not into a removed folder
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const result = { content: [{ type: "text", text: "ok" }] };
// Tools declare the parameters they use, as authors write them; `signalTool` also takes the
// abort signal (the fifth parameter), which a runtime may only create for tools that can see it.
const typeboxTool = {
  name: "read_lines",
  label: "Read lines",
  description: "Reads a range of lines from a file",
  parameters: Type.Object({
    path: Type.String({ minLength: 1 }),
    start: Type.Integer({ minimum: 1 }),
    end: Type.Optional(Type.Integer({ minimum: 1 })),
    encoding: Type.Optional(Type.Union([Type.Literal("utf8"), Type.Literal("latin1")])),
  }),
  async execute(_toolCallId, _params) {
    return result;
  },
};
const signalTool = {
  ...typeboxTool,
  name: "read_lines_abortable",
  async execute(_toolCallId, _params, _onUpdate, _ctx, signal) {
    return signal?.aborted ? { ...result, isError: true } : result;
  },
};
const zodTool = {
  name: "read_lines_zod",
  label: "Read lines (zod)",
  description: "Reads a range of lines from a file",
  parameters: z.object({
    path: z.string().min(1),
    start: z.number().int().min(1),
    end: z.number().int().min(1).optional(),
    encoding: z.enum(["utf8", "latin1"]).optional(),
  }),
  async execute(_toolCallId, _params) {
    return result;
  },
};
const params = { path: "src/index.ts", start: 10, end: 40, encoding: "utf8" };

const session = new runtime.Session({ cwd: process.cwd() });
session.register(typeboxTool, "bench");
session.register(zodTool, "bench");
session.register(signalTool, "bench");
const ctx = { sessionId: session.id, cwd: session.cwd, hasPendingActions: () => false, abort: () => {} };

/** @param {string} name @returns {Promise<void>} */
async function checkSession(name) {
  const outcome = await session.execute({ toolCallId: "check", name, params });
  if (outcome.isError || outcome.content?.[0]?.text !== "ok") {
    throw new Error(`session.execute(${name}) did not pass the call through: ${JSON.stringify(outcome)}`);
  }
  const invalid = await session.execute({ toolCallId: "check", name, params: { path: "", start: 0 } });
  if (!invalid.isError) throw new Error(`session.execute(${name}) accepted invalid arguments`);
}

/**
 * Nanoseconds per call of `body`, one batch of `calls` awaited calls.
 * @param {(index: number) => Promise<unknown>} body
 */
async function batch(body) {
  const started = performance.now();
  for (let index = 0; index < calls; index += 1) await body(index);
  return ((performance.now() - started) * 1e6) / calls;
}

/**
 * Interleaves batches of each arm (A B A B …) after a warm-up; returns the median ns/call of each.
 * @param {Record<string, (index: number) => Promise<unknown>>} arms
 */
async function compare(arms) {
  const entries = Object.entries(arms);
  for (const [, body] of entries) await batch(body); // warm-up: JIT, lazy validators
  /** @type {Record<string, number[]>} */
  const samples = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let round = 0; round < batches; round += 1) {
    for (const [name, body] of round % 2 === 0 ? entries : [...entries].reverse()) {
      samples[name].push(await batch(body));
    }
  }
  return Object.fromEntries(entries.map(([name]) => [name, median(samples[name])]));
}

await checkSession(typeboxTool.name);
await checkSession(zodTool.name);
await checkSession(signalTool.name);

const perCall = await compare({
  typeboxDirect: () => typeboxTool.execute("call", params, undefined, ctx),
  typeboxSession: () => session.execute({ toolCallId: "call", name: typeboxTool.name, params }),
  zodDirect: () => zodTool.execute("call", params, undefined, ctx),
  zodSession: () => session.execute({ toolCallId: "call", name: zodTool.name, params }),
  signalDirect: () => signalTool.execute("call", params, undefined, ctx, undefined),
  signalSession: () => session.execute({ toolCallId: "call", name: signalTool.name, params }),
});

const store = new runtime.PendingActionStore();
const resolveTool = runtime.createResolveTool(store);
const action = { label: "Bench edit", apply: async () => result };
const apply = { action: "apply", reason: "bench" };
const pendingSession = new runtime.Session({ cwd: process.cwd() });
const roundTrips = await compare({
  pushPop: async () => {
    store.push(action);
    store.pop();
  },
  pushResolveTool: async () => {
    store.push(action);
    const applied = await resolveTool.execute("resolve", apply, undefined, ctx);
    if (applied.isError) throw new Error(`resolve failed: ${JSON.stringify(applied)}`);
  },
  pushResolveSession: async () => {
    pendingSession.pending.push(action);
    const applied = await pendingSession.execute({ toolCallId: "resolve", name: "resolve", params: apply });
    if (applied.isError) throw new Error(`resolve through the session failed: ${JSON.stringify(applied)}`);
  },
});
if (store.size !== 0 || pendingSession.pending.size !== 0) throw new Error("the pending stack did not drain");

process.stdout.write(`${JSON.stringify({ calls, batches, afterLoad, perCall, roundTrips })}\n`);
