import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type OpenAI from "openai";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { describePostgres } from "../../../../scripts/describe-postgres.js";
import { startLineProcess } from "../../../../scripts/run-process.mjs";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { examplesPackageDirectory } from "../../src/index.js";
import { type ScriptedModel, startFakeOpenAI } from "../fake-openai.js";
import { tempDir } from "../temp-dir.js";

/**
 * The README's chat server on a durable store (issue 28), each server a real process: a
 * restart on SQLite keeps the pending preview; two processes on one PostgreSQL resolve each
 * other's previews; a process killed in the middle of an apply leaves it interrupted, and
 * the other process reports it and never applies it again.
 */
type Body = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.ChatCompletionMessageParam;

const here = dirname(fileURLToPath(import.meta.url));
const serverScript = join(here, "chat-server-process.mjs");

const text = (message: Message | undefined) => (typeof message?.content === "string" ? message.content : "");
const forcesResolve = (body: Body) =>
  typeof body.tool_choice === "object" && body.tool_choice.type === "function";

/**
 * The scripted model. `rename <n>` previews the rename of `draft-<n>.txt` (`slow <n>`: with
 * the slow tool); when steering forces `resolve` right after, the user has not decided yet:
 * it answers so, and with `hold` first waits until the test lets go (`held`). `apply it` / `discard it` resolve as
 * asked; after a tool result it answers with that result's text.
 */
function model(hold = true) {
  let letGo: () => void = () => {};
  let onHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    onHeld = resolve;
  });
  const scripted: ScriptedModel = async (body) => {
    const messages = body.messages;
    const last = messages.at(-1);
    const ask = text([...messages].reverse().find((m) => m.role === "user"));
    if (last?.role === "tool") return { text: `Done. ${text(last)}` };
    const decision = /^(apply|discard) it$/.exec(ask)?.[1];
    if (forcesResolve(body)) {
      if (decision !== undefined)
        return {
          toolCalls: [
            { name: "resolve", arguments: { action: decision, reason: `The user said ${decision}.` } },
          ],
        };
      if (hold) {
        onHeld();
        await new Promise<void>((resolve) => {
          letGo = resolve;
        });
      }
      return { text: "Waiting for the user." };
    }
    const [, kind, n] = /^(rename|slow) (\d+)$/.exec(ask) ?? [];
    if (kind === "slow")
      return { toolCalls: [{ name: "slow_rename", arguments: { file: `draft-${n}.txt` } }] };
    if (kind === "rename")
      return {
        toolCalls: [
          {
            name: "batch_rename_preview",
            arguments: { files: [`draft-${n}.txt`], find: "draft-", replace: "final-", regex: false },
          },
        ],
      };
    return { text: "Nothing to do." };
  };
  return { scripted, held, letGo: () => letGo() };
}

/** A tool whose durable apply says so on stderr, then never ends: a process killed mid-apply. */
const SLOW_TOOL = `import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "slow_rename",
  label: "Slow rename",
  description: "Previews a rename whose apply hangs.",
  parameters: Type.Object({ file: Type.String() }),
  actions: {
    rename: {
      async apply(payload: { file: string }, _reason: string, ctx: { cwd: string }) {
        appendFileSync(join(ctx.cwd, "applied.log"), payload.file + "\\n");
        process.stderr.write("APPLYING\\n");
        return new Promise(() => {});
      },
    },
  },
  async execute(_id: string, params: { file: string }, _onUpdate: unknown, ctx: any) {
    ctx.pushPendingAction({ label: "Rename " + params.file, handler: "rename", payload: { file: params.file } });
    return { content: [{ type: "text", text: "Preview: rename " + params.file }] };
  },
});
`;

/** One chat server process, driven by JSON lines. */
function startServer(node: string, store: string, baseURL: string, tools: string, cwd: string) {
  let onApplying: () => void = () => {};
  const applying = new Promise<void>((resolve) => {
    onApplying = resolve;
  });
  const server = startLineProcess(node, [serverScript, store, baseURL, tools, cwd], {
    onStderr: (stderr) => {
      if (stderr.includes("APPLYING")) onApplying();
    },
  });
  onTestFinished(server.kill);
  const next = () => server.next() as Promise<Record<string, unknown>>;
  const send = (command: object) => server.send(JSON.stringify(command));
  return {
    applying,
    ready: () => next(),
    async open(id: string, folder: string) {
      send({ op: "open", id, cwd: folder });
      return next();
    },
    /** Sends a user message; `await` the returned function for the reply. */
    say(id: string, message: string) {
      send({ op: "send", id, text: message });
      return next;
    },
    kill: server.kill,
  };
}

async function applied(folder: string): Promise<string[]> {
  return (await readFile(join(folder, "applied.log"), "utf8").catch(() => "")).split("\n").filter(Boolean);
}

describe("the README's chat server on SQLite (Node 24: node:sqlite)", { timeout: 120_000 }, () => {
  let node = "";
  beforeAll(async () => {
    node = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
  }, 600_000);

  it("a restart keeps the pending preview: the next process applies it", async () => {
    const folder = await tempDir({ "draft-1.txt": "one" });
    onTestFinished(folder.remove);
    await mkdir(join(folder.path, "state"), { mode: 0o700 });
    const store = join(folder.path, "state", "pending.db");
    const { scripted, held, letGo } = model();
    const fake = await startFakeOpenAI(scripted);
    onTestFinished(fake.close);

    const first = startServer(node, store, fake.baseURL, examplesPackageDirectory, folder.path);
    await first.ready();
    await first.open("A", folder.path);
    first.say("A", "rename 1");
    await held; // the preview is staged; the user has not answered yet
    await first.kill(); // a deploy: the process goes away mid-turn
    letGo();

    const second = startServer(node, store, fake.baseURL, examplesPackageDirectory, folder.path);
    await second.ready();
    expect(await second.open("A", folder.path)).toEqual({ opened: "A" });
    const reply = await second.say("A", "apply it")();
    expect(reply).toEqual({ id: "A", reply: expect.stringContaining("Renamed 1 file:") });
    expect((await folder.files()).filter((name) => name.endsWith(".txt"))).toEqual(["final-1.txt"]);
    // The second process's first request forced `resolve`: it saw the preview of the first.
    const afterRestart = fake.requests.find((body) => text(body.messages.at(-1)) === "apply it");
    expect(afterRestart?.tool_choice).toEqual({ type: "function", function: { name: "resolve" } });
  });
});

describePostgres(
  "the README's chat server as two processes on one PostgreSQL",
  { timeout: 120_000 },
  (cluster) => {
    it("a preview staged through one process is applied through the other, once", async () => {
      const folder = await tempDir({ "draft-2.txt": "two" });
      onTestFinished(folder.remove);
      const { scripted, held, letGo } = model();
      const fake = await startFakeOpenAI(scripted);
      onTestFinished(fake.close);
      const url = cluster().url;
      const one = startServer(process.execPath, url, fake.baseURL, examplesPackageDirectory, folder.path);
      const two = startServer(process.execPath, url, fake.baseURL, examplesPackageDirectory, folder.path);
      await Promise.all([one.ready(), two.ready()]);
      await one.open("B", folder.path);
      await two.open("B", folder.path); // opened before the preview: its stack is empty

      const firstTurn = one.say("B", "rename 2");
      await held;
      // The user's "apply" lands on the other process: it reads the conversation's actions first.
      expect(await two.say("B", "apply it")()).toEqual({
        id: "B",
        reply: expect.stringContaining("Renamed 1 file:"),
      });
      letGo();
      expect(await firstTurn()).toEqual({ id: "B", reply: "Waiting for the user." });
      expect((await folder.files()).filter((name) => name.endsWith(".txt"))).toEqual(["final-2.txt"]);
      // The first process's next turn sees nothing pending any more: no resolve is forced.
      expect(await one.say("B", "anything else?")()).toEqual({ id: "B", reply: "Nothing to do." });
    });

    it("a process killed with SIGKILL in the middle of an apply: the other reports it interrupted and never applies it again", async () => {
      const folder = await tempDir({ "draft-3.txt": "three" });
      onTestFinished(folder.remove);
      const tools = join(folder.path, "tools");
      await mkdir(tools);
      await writeFile(join(tools, "slow-rename.ts"), SLOW_TOOL);
      const { scripted } = model(false);
      const fake = await startFakeOpenAI(scripted);
      onTestFinished(fake.close);
      const url = cluster().url;
      const one = startServer(process.execPath, url, fake.baseURL, tools, folder.path);
      const two = startServer(process.execPath, url, fake.baseURL, tools, folder.path);
      await Promise.all([one.ready(), two.ready()]);
      await one.open("C", folder.path);

      // Staged; steering forces `resolve`, but the user has not decided yet.
      expect(await one.say("C", "slow 3")()).toEqual({ id: "C", reply: "Waiting for the user." });
      one.say("C", "apply it");
      await one.applying;
      await one.kill();

      await two.open("C", folder.path);
      // The killed process holds its liveness lock until PostgreSQL's backend sees the socket
      // close, which on a busy machine comes after the kill: until then the action is still
      // being applied by a live process, off the stack ("Nothing to do."). Asked again until
      // the store knows the process ended.
      let refused = await two.say("C", "apply it")();
      while (refused.reply === "Nothing to do.") refused = await two.say("C", "apply it")();
      expect(refused.reply).toContain('"Rename draft-3.txt" was interrupted while it was being applied');
      expect(refused.reply).toContain("never applied again");
      expect(await two.say("C", "discard it")()).toEqual({
        id: "C",
        reply: expect.stringContaining("Discarded: Rename draft-3.txt"),
      });
      expect(await applied(folder.path)).toEqual(["draft-3.txt"]); // started once, never again
      expect(await two.say("C", "anything else?")()).toEqual({ id: "C", reply: "Nothing to do." });
    });
  },
);
