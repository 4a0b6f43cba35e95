import type OpenAI from "openai";
import { expect, it, onTestFinished } from "vitest";
import { createChatServer } from "../../src/chat-server.js";
import { examplesPackageDirectory } from "../../src/index.js";
import { tempDir } from "../temp-dir.js";

// A model that refuses answers with `content: null` and the reason in `refusal`. send()
// returned `content ?? ""`: the user got an empty reply and never learnt the model refused.

it("send() answers with the model's refusal instead of an empty text", async () => {
  const folder = await tempDir();
  onTestFinished(folder.remove);
  const server = await createChatServer({
    toolsPath: examplesPackageDirectory,
    cwd: folder.path,
    model: "gpt-4.1",
    complete: async (body): Promise<OpenAI.Chat.ChatCompletion> => ({
      id: "chatcmpl-refusal",
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, refusal: "I can't help with that." },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
    }),
  });
  await server.open("A");
  onTestFinished(() => server.close("A"));

  expect(await server.send("A", "something it refuses")).toBe("I can't help with that.");
});
