import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Session } from "@tooldock/runtime";
import { generateText, type ModelMessage, stepCountIs, streamText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAISDKTools } from "../../src/index.js";
import { tempFolder, writeFilePreviewTool } from "../fixture-tools.js";
import { scriptedModel } from "../scripted-model.js";

/**
 * Failure (issue 27, item 2): the README's loop kept `result.response.messages`, which in `ai` 7
 * is the last step's only. After a three-step turn (a preview, the forced resolve, a text) the
 * history was `user → assistant`: the next turn's model never saw its own preview or the apply.
 * The loop keeps `result.responseMessages` (every step's), as the README now shows.
 */
describe("the README's AI SDK loop over two user turns", () => {
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let session: Session;
  beforeEach(async () => {
    folder = await tempFolder();
    session = new Session({ cwd: folder.path });
    session.register(writeFilePreviewTool(folder.path), "test");
  });
  afterEach(async () => {
    await session.dispose();
    await folder.remove();
  });

  const script = () =>
    scriptedModel([
      { calls: [{ toolName: "write_file_preview", input: { path: "a.txt", text: "hello" } }] },
      { calls: [{ toolName: "resolve", input: { action: "apply", reason: "looks right" } }] },
      { text: "written" },
      { text: "you asked me to write a.txt" },
    ]);

  /** Roles and tool call ids of a prompt, as the model received it. */
  const shape = (prompt: Array<{ role: string; content: unknown }>) =>
    prompt.map((message) =>
      Array.isArray(message.content)
        ? `${message.role}(${message.content
            .map((part: { type: string; toolCallId?: string }) => part.toolCallId ?? part.type)
            .join(",")})`
        : message.role,
    );

  const expected = [
    "user(text)",
    "assistant(step0-call0)",
    "tool(step0-call0)",
    "assistant(step1-call0)",
    "tool(step1-call0)",
    "assistant(text)",
    "user(text)",
  ];

  it("generateText: the next turn's model sees every step of the previous turn", async () => {
    const { model, step } = script();
    const messages: ModelMessage[] = [];
    for (const text of ["write a.txt", "what did you do?"]) {
      messages.push({ role: "user", content: text });
      const { tools, prepareStep } = createAISDKTools(session);
      const result = await generateText({ model, messages, tools, prepareStep, stopWhen: stepCountIs(20) });
      messages.push(...result.responseMessages);
    }
    expect(await readFile(join(folder.path, "a.txt"), "utf8")).toBe("hello");
    expect(shape(step(3).prompt as never)).toEqual(expected);
  });

  it("streamText: the same, from the stream's responseMessages", async () => {
    const { model, step } = script();
    const messages: ModelMessage[] = [];
    for (const text of ["write a.txt", "what did you do?"]) {
      messages.push({ role: "user", content: text });
      const { tools, prepareStep } = createAISDKTools(session);
      const result = streamText({ model, messages, tools, prepareStep, stopWhen: stepCountIs(20) });
      messages.push(...(await result.responseMessages));
    }
    expect(shape(step(3).prompt as never)).toEqual(expected);
  });
});
