import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createChatServer } from "../src/chat-server.js";
import { examplesPackageDirectory } from "../src/index.js";
import { type ScriptedModel, startFakeOpenAI, transcriptProblem } from "./fake-openai.js";
import { tempDir } from "./temp-dir.js";

type Body = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.ChatCompletionMessageParam;

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const text = (message: Message | undefined) => (typeof message?.content === "string" ? message.content : "");
const forcesResolve = (body: Body) =>
  typeof body.tool_choice === "object" && body.tool_choice.type === "function"
    ? body.tool_choice.function.name === "resolve"
    : false;

/**
 * The scripted model. A user message `rename <n> then <apply|discard>` makes it preview the
 * rename of `draft-<n>.txt`; a request that forces `resolve` makes it resolve as asked; a
 * `resolve` result makes it answer with that result's text. Replies come after a random
 * pause, so the two conversations' steps interleave.
 */
function renamingModel(random: () => number): ScriptedModel {
  return async (body) => {
    await pause(Math.floor(random() * 15));
    const messages = body.messages;
    const last = messages.at(-1);
    const ask = [...messages].reverse().find((m) => m.role === "user" && text(m).startsWith("rename "));
    const [, n, wanted] = /^rename (\d+) then (apply|discard)$/.exec(text(ask)) ?? [];
    if (forcesResolve(body))
      return {
        toolCalls: [{ name: "resolve", arguments: { action: wanted, reason: `The user said ${wanted}.` } }],
      };
    if (last?.role === "tool") return { text: `Done. ${text(last)}` };
    return {
      toolCalls: [
        {
          name: "batch_rename_preview",
          arguments: { files: [`draft-${n}.txt`], find: "draft-", replace: "final-", regex: false },
        },
      ],
    };
  };
}

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("the README's chat server, driven by the OpenAI SDK client over HTTP", () => {
  it("runs two conversations concurrently on one host; each action is resolved in its own conversation", async () => {
    const fake = await startFakeOpenAI(renamingModel(seeded(20261203)));
    servers.push(fake);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0 });
    const seed = { "draft-1.txt": "1", "draft-2.txt": "2", "draft-3.txt": "3" };
    const folders = { A: await tempDir(seed), B: await tempDir(seed) };
    const server = await createChatServer({
      toolsPath: examplesPackageDirectory,
      cwd: folders.A.path,
      model: "gpt-4.1",
      complete: (body) => openai.chat.completions.create(body),
    });
    try {
      expect(server.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      await server.open("A", folders.A.path);
      await server.open("B", folders.B.path);
      const plans = {
        A: ["rename 1 then apply", "rename 2 then discard", "rename 3 then apply"],
        B: ["rename 1 then discard", "rename 2 then apply", "rename 3 then apply"],
      };
      // Both conversations at once; within one, the messages queue behind each other.
      const replies = await Promise.all(
        (["A", "B"] as const).flatMap((id) => plans[id].map((message) => server.send(id, message))),
      );
      expect(replies.slice(0, 3)).toEqual([
        expect.stringContaining("Renamed 1 file:"),
        expect.stringContaining("Discarded"),
        expect.stringContaining("Renamed 1 file:"),
      ]);
      expect(replies.slice(3)).toEqual([
        expect.stringContaining("Discarded"),
        expect.stringContaining("Renamed 1 file:"),
        expect.stringContaining("Renamed 1 file:"),
      ]);
      expect(await folders.A.files()).toEqual(["draft-2.txt", "final-1.txt", "final-3.txt"]);
      expect(await folders.B.files()).toEqual(["draft-1.txt", "final-2.txt", "final-3.txt"]);

      for (const id of ["A", "B"] as const) {
        const transcript = server.transcript(id);
        // Every request was accepted (the fake API answers 400 otherwise), and so is the final transcript.
        expect(transcriptProblem({ model: "gpt-4.1", messages: [...transcript] })).toBeUndefined();
        // The reminder follows the preview's tool result, never sits between a call and its result.
        const roles = transcript.map((m) => m.role);
        expect(roles.slice(0, 7)).toEqual([
          "user",
          "assistant",
          "tool",
          "user",
          "assistant",
          "tool",
          "assistant",
        ]);
        expect(text(transcript[3])).toContain("resolve");
        // Each conversation only ever staged and resolved its own previews.
        const tools = transcript.filter((m) => m.role === "tool").map(text);
        expect(tools.filter((t) => t.includes("Staged") || t.includes("Preview"))).toHaveLength(3);
      }
      // Steering was per conversation: a request forced `resolve` exactly after that conversation's preview.
      for (const body of fake.requests) {
        const last = body.messages.at(-1);
        const afterPreview = last?.role === "user" && body.messages.at(-2)?.role === "tool";
        expect(forcesResolve(body)).toBe(afterPreview);
      }
    } finally {
      await Promise.all([server.close("A"), server.close("B")]);
      await Promise.all([folders.A.remove(), folders.B.remove()]);
    }
  });

  it("answers arguments that are not JSON with an error result, and the conversation goes on", async () => {
    let step = 0;
    const fake = await startFakeOpenAI(() => {
      step += 1;
      return step === 1
        ? { toolCalls: [{ name: "text_stats", arguments: "{not json" }] }
        : { text: "Sorry." };
    });
    servers.push(fake);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0 });
    const folder = await tempDir();
    const server = await createChatServer({
      toolsPath: examplesPackageDirectory,
      cwd: folder.path,
      model: "gpt-4.1",
      complete: (body) => openai.chat.completions.create(body),
    });
    try {
      await server.open("C");
      expect(await server.send("C", "count the words")).toBe("Sorry.");
      const tool = server.transcript("C").find((m) => m.role === "tool");
      expect(text(tool)).toMatch(/argument|object/i);
      await expect(server.send("nobody", "hi")).rejects.toThrow('No conversation "nobody"; open it first.');
    } finally {
      await server.close("C");
      await folder.remove();
    }
  });
});
