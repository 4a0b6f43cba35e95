// One process of the durable pending-action tests (durable-store.e2e.test.ts):
//   node scenario.mjs <store> <sessionId> <step> [...]
// <store> is an SQLite file (node:sqlite, or better-sqlite3 on Node 20) or a postgresql:// URL.
// Steps: hang-closure (a callback action whose apply never settles; the test kills it);
// slow <log> (an action whose apply outlives its resolve's deadline, and writes once "go"
// comes on stdin); stage <log> <tag> [closure] [dispose] (a durable action, a callback action on top
// of it with `closure`, then `session.dispose()` with `dispose`); resolve <apply|discard> <reason>; hang <log> (stages an action whose
// apply appends to <log>, says "applying" and never settles, then resolves it);
// race <apply|discard> (opens the session, says "ready", resolves once "go" comes on stdin);
// list; history. Prints one JSON line per result. `--no-handler` registers the tool without
// its handlers; `--host NAME` names this process as one on another host (printing it first).

import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Type } from "@sinclair/typebox";
import { openPostgresJournal, openSqliteJournal, PendingActionStore, Session } from "@tooldock/runtime";

const [db, sessionId, step, ...rest] = process.argv.slice(2);
const withHandlers = !rest.includes("--no-handler");
// `--host NAME`: this process names itself as running on another host (its pid cannot be asked from here).
const hostIndex = rest.indexOf("--host");
const host = hostIndex === -1 ? undefined : rest[hostIndex + 1];
const args = rest.filter(
  (arg, index) =>
    arg !== "--no-handler" && (hostIndex === -1 || (index !== hostIndex && index !== hostIndex + 1)),
);
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

const handlers = {
  rename: {
    async apply(payload, reason) {
      appendFileSync(payload.log, `${payload.tag} ${reason}\n`);
      return { content: [{ type: "text", text: `renamed ${payload.tag}` }] };
    },
  },
  hang: {
    async apply(payload) {
      appendFileSync(payload.log, "hang\n");
      print({ applying: true });
      return new Promise(() => {});
    },
  },
  // Runs until "go" comes on stdin (past its resolve's deadline), then writes.
  slow: {
    async apply(payload) {
      print({ applying: true });
      await go();
      appendFileSync(payload.log, "slow\n");
      slowDone();
      return { content: [{ type: "text", text: "slow done" }] };
    },
  },
};

let slowDone = () => {};
const slowFinished = new Promise((resolve) => {
  slowDone = resolve;
});

/** Resolves at the first "go" line on stdin, then lets stdin go (the process may end). */
async function go() {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line === "go") break;
  lines.close();
}

const tool = {
  name: "rename_preview",
  label: "Rename preview",
  description: "Stages a rename.",
  parameters: Type.Object({ action: Type.Unknown() }),
  ...(withHandlers ? { actions: handlers } : {}),
  async execute(_id, params, _onUpdate, ctx) {
    for (const action of params.action) ctx.pushPendingAction(action);
    return { content: [{ type: "text", text: "staged" }] };
  },
};

const journal = db.startsWith("postgresql:") ? await openPostgresJournal(db) : openSqliteJournal(db);
// `slow` gives resolve a short deadline: its apply outlives it.
const timeouts = step === "slow" ? { resolveTimeoutMs: 300 } : {};
let session;
if (host === undefined) session = await Session.open({ sessionId, journal, ...timeouts });
else {
  const identity = { host, pid: process.pid, token: randomUUID() };
  print({ process: identity });
  const pending = await PendingActionStore.open(journal, sessionId, { process: identity });
  session = new Session({ sessionId, pending, ...timeouts });
}
session.register(tool);
const call = (name, params) => session.execute({ toolCallId: `${step}-${Date.now()}`, name, params });
const resolve = async (action, reason) => {
  const result = await call("resolve", { action, reason });
  print({ isError: result.isError === true, text: result.content.map((block) => block.text).join("\n") });
};

if (step === "stage") {
  const [log, tag, closure] = args;
  const actions = [{ label: `Rename ${tag}`, handler: "rename", payload: { log, tag } }];
  if (closure === "closure")
    actions.push({
      label: "Callback action",
      apply: async () => ({ content: [{ type: "text", text: "ran" }] }),
    });
  const result = await call("rename_preview", { action: actions });
  print({ isError: result.isError === true, pending: session.pending.list().map((record) => record.label) });
  // A server's graceful shutdown.
  if (args.includes("dispose")) await session.dispose();
} else if (step === "resolve") {
  await resolve(args[0], args[1]);
} else if (step === "hang") {
  await call("rename_preview", {
    action: [{ label: "Hanging rename", handler: "hang", payload: { log: args[0] } }],
  });
  await resolve("apply", "go ahead"); // never returns: the test kills this process
} else if (step === "hang-closure") {
  const apply = async () => {
    print({ applying: true });
    return new Promise(() => {});
  };
  await call("rename_preview", { action: [{ label: "Hanging callback", apply }] });
  await resolve("apply", "go ahead"); // never returns: the test kills this process
} else if (step === "slow") {
  await call("rename_preview", {
    action: [{ label: "Slow rename", handler: "slow", payload: { log: args[0] } }],
  });
  await resolve("apply", "go ahead"); // times out while the apply runs on
  await slowFinished; // the apply writes, late, once "go" comes
  print({ late: true });
} else if (step === "race") {
  print({ ready: true, pending: session.pending.size });
  await go();
  await resolve(args[0], "race");
} else if (step === "list") {
  print(session.pending.list());
} else if (step === "history") {
  print((await session.pending.history()).map((transition) => transition.kind));
}
await journal.close();
