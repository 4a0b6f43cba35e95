import type OpenAI from "openai";
import { expect, it, onTestFinished } from "vitest";
import { createChatServer } from "../../src/chat-server.js";
import { examplesPackageDirectory } from "../../src/index.js";
import { tempDir } from "../temp-dir.js";

// A message sent while a conversation was open waits for the turn before it. close() took the
// conversation off the server at once, so that queued message then failed with `No
// conversation "A"; open it first.`: the caller had opened it, and its message was lost.
// Now close() lets the messages already sent run, then ends the conversation.

it("close() lets the messages sent before it run, and refuses only those sent after", async () => {
  const folder = await tempDir();
  onTestFinished(folder.remove);
  let release = () => {};
  const firstAnswered = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  const server = await createChatServer({
    toolsPath: examplesPackageDirectory,
    cwd: folder.path,
    model: "gpt-4.1",
    complete: async (body): Promise<OpenAI.Chat.ChatCompletion> => {
      calls += 1;
      if (calls === 1) await firstAnswered; // the first turn runs until close() was called
      const last = body.messages.at(-1);
      return {
        id: `chatcmpl-${calls}`,
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: `echo: ${String(last?.content)}`, refusal: null },
            finish_reason: "stop",
            logprobs: null,
          },
        ],
      };
    },
  });
  await server.open("A");
  const first = server.send("A", "one");
  const second = server.send("A", "two");
  const closing = server.close("A");
  release();
  expect(await first).toBe("echo: one");
  expect(await second).toBe("echo: two");
  await closing;
  await expect(server.send("A", "three")).rejects.toThrow('No conversation "A"; open it first.');
});
