import type OpenAI from "openai";
import { expect, it, onTestFinished } from "vitest";
import { createChatServer } from "../../src/chat-server.js";
import { examplesPackageDirectory } from "../../src/index.js";
import { tempDir } from "../temp-dir.js";

// The chat server loads each tool once for every conversation. The notes tools kept one
// scratchpad in their factory: a note added in one conversation was listed in every other,
// and closing any conversation (its `shutdown`) wiped the notes of all of them.

type Body = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

/** `note <text>` adds a note, `list` lists them; after a tool result it answers with its text. */
async function notesModel(body: Body): Promise<OpenAI.Chat.ChatCompletion> {
  const last = body.messages.at(-1);
  const said = typeof last?.content === "string" ? last.content : "";
  const call = (name: string, args: object) => ({
    id: `call_${body.messages.length}`,
    type: "function" as const,
    function: { name, arguments: JSON.stringify(args) },
  });
  const message: OpenAI.Chat.ChatCompletionMessage =
    last?.role === "tool"
      ? { role: "assistant", content: said, refusal: null }
      : {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            said.startsWith("note ") ? call("note_add", { text: said.slice(5) }) : call("note_list", {}),
          ],
        };
  return {
    id: "chatcmpl-notes",
    object: "chat.completion",
    created: 0,
    model: body.model,
    choices: [{ index: 0, message, finish_reason: "stop", logprobs: null }],
  };
}

it("a note added in one conversation stays in it, and closing another conversation keeps it", async () => {
  const folder = await tempDir();
  onTestFinished(folder.remove);
  const server = await createChatServer({
    toolsPath: examplesPackageDirectory,
    cwd: folder.path,
    model: "gpt-4.1",
    complete: notesModel,
  });
  await server.open("A");
  await server.open("B");
  onTestFinished(() => server.close("A"));

  expect(await server.send("A", "note the password is in the vault")).toBe("Noted (#1).");
  expect(await server.send("B", "list")).toContain("No notes yet");

  await server.close("B");
  expect(await server.send("A", "list")).toBe("1. the password is in the vault");
});
