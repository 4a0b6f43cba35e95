// The README's chat server as one process of a deployment, for chat-server-durable.e2e.test.ts:
//   node chat-server-process.mjs <store> <baseURL> <toolsPath> <cwd>
// <store> is an SQLite file (under a Node with node:sqlite) or a postgresql:// URL. Reads one
// JSON command per stdin line ({ op: "open", id, cwd } | { op: "send", id, text } |
// { op: "exit" }) and prints one JSON line per answer: { opened, pending } or { id, reply }.
import { createInterface } from "node:readline";
import { openPostgresJournal, openSqliteJournal } from "@tooldock/runtime";
import OpenAI from "openai";
import { createChatServer } from "../../dist/chat-server.js";

const [store, baseURL, toolsPath, cwd] = process.argv.slice(2);
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const journal = store.startsWith("postgresql:") ? await openPostgresJournal(store) : openSqliteJournal(store);
const openai = new OpenAI({ apiKey: "test-key", baseURL, maxRetries: 0 });
const server = await createChatServer({
  toolsPath,
  cwd,
  model: "gpt-4.1",
  journal,
  complete: (body) => openai.chat.completions.create(body),
});
const errors = server.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
if (errors.length > 0) throw new Error(`tools failed to load: ${JSON.stringify(errors)}`);
print({ ready: true });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.op === "open") {
    await server.open(command.id, command.cwd);
    print({ opened: command.id });
  } else if (command.op === "send") {
    server.send(command.id, command.text).then(
      (reply) => print({ id: command.id, reply }),
      (error) => print({ id: command.id, error: String(error) }),
    );
  } else if (command.op === "exit") {
    break;
  }
}
await journal.close();
process.exit(0);
