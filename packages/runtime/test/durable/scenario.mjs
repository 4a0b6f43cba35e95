// One process of the durable pending-action tests (durable-store.e2e.test.ts):
//   node scenario.mjs <store> <sessionId> <step> [...]
// <store> is an SQLite file (under a Node with node:sqlite) or a postgresql:// URL.
// Steps: hang-closure (a callback action whose apply never settles; the test kills it);
// slow <log> (an action whose apply outlives its resolve's deadline, and writes once "go"
// comes on stdin); stage <log> <tag> [closure] [dispose] (a durable action, a callback action on top
// of it with `closure`, then `session.dispose()` with `dispose`); resolve <apply|discard> <reason>; hang <log> (stages an action whose
// apply appends to <log>, says "applying" and never settles, then resolves it);
// race <apply|discard> (opens the session, says "ready", resolves once "go" comes on stdin);
// list; history. Prints one JSON line per result. `--no-handler` registers the tool without
// its handlers.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Type } from "@sinclair/typebox";
import { openPostgresJournal, openSqliteJournal, Session } from "@tooldock/runtime";

const [db, sessionId, step, ...rest] = process.argv.slice(2);
const withHandlers = !rest.includes("--no-handler");
const args = rest.filter((arg) => arg !== "--no-handler");
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
const session = await Session.open({
  sessionId,
  journal,
  ...(step === "slow" ? { resolveTimeoutMs: 300 } : {}),
});
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
