import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Session } from "@tooldock/runtime";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import { generateText, stepCountIs, streamText } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAISDKTools } from "../src/index.js";
import { boomTool, tempFolder, writeFilePreviewTool } from "./fixture-tools.js";
import { scriptedModel, toolNamesOffered, toolOutputsSeen } from "./scripted-model.js";

describe("createAISDKTools in a real generateText loop", () => {
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let session: Session;

  beforeEach(async () => {
    folder = await tempFolder();
  });

  afterEach(async () => {
    await session?.dispose();
    await folder.remove();
  });

  const openSession = (options: ConstructorParameters<typeof Session>[0] = {}) => {
    session = new Session({ cwd: folder.path, ...options });
    session.register(writeFilePreviewTool(folder.path), "test");
    return session;
  };

  it("previews, is forced to resolve, applies: the file is written and the model saw the reminder", async () => {
    openSession();
    const { tools, prepareStep } = createAISDKTools(session);
    const { model, step } = scriptedModel([
      { calls: [{ toolName: "write_file_preview", input: { path: "a.txt", text: "hello" } }] },
      { calls: [{ toolName: "resolve", input: { action: "apply", reason: "looks right" } }] },
      { text: "done" },
    ]);

    const result = await generateText({
      model,
      tools,
      prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "write",
    });

    expect(result.text).toBe("done");
    expect(await readFile(join(folder.path, "a.txt"), "utf8")).toBe("hello");
    // Step 1: nothing pending, resolve not offered, the configured choice.
    expect(toolNamesOffered(step(0))).toEqual(["write_file_preview"]);
    expect(step(0).toolChoice).toEqual({ type: "auto" });
    // Step 2: after the preview, resolve is offered (first) and forced.
    expect(toolNamesOffered(step(1))).toEqual(["resolve", "write_file_preview"]);
    expect(step(1).toolChoice).toEqual({ type: "tool", toolName: "resolve" });
    const previewOutput = toolOutputsSeen(step(1)).get("step0-call0");
    expect(previewOutput).toMatchObject({ type: "text" });
    const previewText = (previewOutput as { value: string }).value;
    expect(previewText).toBe(
      'Preview: a.txt would contain "hello".\n\n' +
        "Nothing has changed yet. Call the `resolve` tool to apply or discard Write a.txt " +
        '(action "apply" or "discard", with a reason) before doing anything else.',
    );
    // Step 3: resolved, back to the tool, and the model read the apply result.
    expect(toolNamesOffered(step(2))).toEqual(["write_file_preview"]);
    expect(step(2).toolChoice).toEqual({ type: "auto" });
    expect(toolOutputsSeen(step(2)).get("step1-call0")).toEqual({
      type: "text",
      value: expect.stringContaining("Wrote a.txt"),
    });
    expect(session.pending.list()).toEqual([]);
  });

  it("previews then discards: nothing is written and the model sees the discard result", async () => {
    openSession();
    const { tools, prepareStep } = createAISDKTools(session);
    const { model, step } = scriptedModel([
      { calls: [{ toolName: "write_file_preview", input: { path: "a.txt", text: "hello" } }] },
      { calls: [{ toolName: "resolve", input: { action: "discard", reason: "wrong file" } }] },
      { text: "ok" },
    ]);

    await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(5), prompt: "write" });

    expect(await folder.files()).toEqual([]);
    const seen = toolOutputsSeen(step(2)).get("step1-call0") as { type: string; value: string };
    expect(seen.type).toBe("text");
    expect(seen.value).toContain("Discarded: Write a.txt. Nothing was written. Reason: wrong file");
    expect(session.pending.list()).toEqual([]);
  });

  it("resolves two staged previews last in, first out", async () => {
    // Two deferrable calls in one step: "allow" lets the second run while the first is pending,
    // and one call at a time makes the push order the call order.
    openSession({ pendingPolicy: "allow" });
    const applied: string[] = [];
    session.subscribe((event) => {
      if (event.type === "action-applied") applied.push(event.record.label);
    });
    const { tools, prepareStep } = createAISDKTools(session);
    const { model, step } = scriptedModel([
      {
        calls: [
          { toolName: "write_file_preview", input: { path: "first.txt", text: "1" } },
          { toolName: "write_file_preview", input: { path: "second.txt", text: "2" } },
        ],
      },
      { calls: [{ toolName: "resolve", input: { action: "apply", reason: "yes" } }] },
      { calls: [{ toolName: "resolve", input: { action: "apply", reason: "yes" } }] },
      { text: "both written" },
    ]);

    await generateText({
      model,
      tools,
      prepareStep,
      toolCallConcurrency: 1,
      stopWhen: stepCountIs(6),
      prompt: "write two",
    });

    expect(applied).toEqual(["Write second.txt", "Write first.txt"]);
    expect(await folder.files()).toEqual(["first.txt", "second.txt"]);
    expect(step(1).toolChoice).toEqual({ type: "tool", toolName: "resolve" });
    expect(step(2).toolChoice).toEqual({ type: "tool", toolName: "resolve" });
    expect(step(3).toolChoice).toEqual({ type: "auto" });
    // Each preview's own reminder is in its own output, not in the other's.
    const seen = toolOutputsSeen(step(1));
    const first = (seen.get("step0-call0") as { value: string }).value;
    const second = (seen.get("step0-call1") as { value: string }).value;
    expect(first).toContain("discard Write first.txt (action");
    expect(first).not.toContain("second.txt");
    expect(second).toContain("discard Write second.txt (action");
    expect(second).not.toContain("first.txt");
    expect((toolOutputsSeen(step(2)).get("step1-call0") as { value: string }).value).toContain(
      "Wrote second.txt",
    );
    expect((toolOutputsSeen(step(3)).get("step2-call0") as { value: string }).value).toContain(
      "Wrote first.txt",
    );
  });

  it("a tool that throws: the loop goes on and the model sees an error output", async () => {
    openSession();
    session.register(boomTool, "test");
    const { tools, prepareStep } = createAISDKTools(session);
    const { model, step } = scriptedModel([
      { calls: [{ toolName: "boom", input: {} }] },
      { text: "it failed, sorry" },
    ]);

    const result = await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(5), prompt: "go" });

    expect(result.text).toBe("it failed, sorry");
    expect(toolOutputsSeen(step(1)).get("step0-call0")).toEqual({
      type: "error-text",
      value: expect.stringContaining('Tool "boom" failed: the fuse was lit'),
    });
    // The AI SDK recorded a result, not a tool error: the session answered.
    const [toolResult] = result.steps[0]?.toolResults ?? [];
    expect(toolResult?.output).toMatchObject({ isError: true, reminders: [] });
  });

  it("invalid arguments are answered by the session's validation, in the loop", async () => {
    openSession();
    const { tools, prepareStep } = createAISDKTools(session);
    const { model, step } = scriptedModel([
      { calls: [{ toolName: "write_file_preview", input: { path: 7 } }] },
      { text: "let me fix that" },
    ]);

    await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(5), prompt: "go" });

    const seen = toolOutputsSeen(step(1)).get("step0-call0") as { type: string; value: string };
    expect(seen.type).toBe("error-text");
    expect(seen.value).toContain('Invalid arguments for tool "write_file_preview"');
    expect(session.pending.list()).toEqual([]);
  });

  it("an aborted generateText aborts the running tool", async () => {
    openSession();
    let started: () => void = () => {};
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let sawAbort: boolean | undefined;
    const waitTool = defineTool({
      name: "wait",
      label: "Wait",
      description: "Waits until aborted.",
      parameters: Type.Object({}),
      async execute(_toolCallId, _params, _onUpdate, _ctx, signal) {
        started();
        await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()));
        sawAbort = signal?.aborted;
        return textResult("stopped");
      },
    }) as CustomTool;
    session.register(waitTool, "test");
    const { tools, prepareStep } = createAISDKTools(session);
    const { model } = scriptedModel([{ calls: [{ toolName: "wait", input: {} }] }, { text: "unreachable" }]);
    const controller = new AbortController();

    const run = generateText({
      model,
      tools,
      prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "wait",
      abortSignal: controller.signal,
    });
    await toolStarted;
    controller.abort();

    await expect(run).rejects.toThrow();
    expect(sawAbort).toBe(true);
  });
});

describe("two conversations at once", () => {
  it("stage, steer and apply each in its own session, with one tool object shared by both", async () => {
    const folder = await tempFolder();
    const tool = writeFilePreviewTool(folder.path);
    const sessions = [new Session({ cwd: folder.path }), new Session({ cwd: folder.path })];
    try {
      const runs = sessions.map((session, index) => {
        session.register(tool, "test");
        const { tools, prepareStep } = createAISDKTools(session);
        const scripted = scriptedModel([
          { calls: [{ toolName: "write_file_preview", input: { path: `c${index}.txt`, text: `${index}` } }] },
          { calls: [{ toolName: "resolve", input: { action: "apply", reason: "yes" } }] },
          { text: "done" },
        ]);
        return {
          scripted,
          done: generateText({
            model: scripted.model,
            tools,
            prepareStep,
            stopWhen: stepCountIs(5),
            prompt: "go",
          }),
        };
      });
      await Promise.all(runs.map((run) => run.done));

      expect(await folder.files()).toEqual(["c0.txt", "c1.txt"]);
      runs.forEach(({ scripted }, index) => {
        expect(scripted.step(1).toolChoice).toEqual({ type: "tool", toolName: "resolve" });
        const preview = (toolOutputsSeen(scripted.step(1)).get("step0-call0") as { value: string }).value;
        expect(preview).toContain(`discard Write c${index}.txt (`);
        expect(preview).not.toContain(`c${1 - index}.txt`);
        expect(scripted.step(2).toolChoice).toEqual({ type: "auto" });
      });
      for (const session of sessions) expect(session.pending.list()).toEqual([]);
    } finally {
      await Promise.all(sessions.map((session) => session.dispose()));
      await folder.remove();
    }
  });
});

describe("createAISDKTools in a real streamText loop", () => {
  it("previews, is forced to resolve and applies; the stream carries the outputs with their reminders", async () => {
    const folder = await tempFolder();
    const session = new Session({ cwd: folder.path });
    try {
      session.register(writeFilePreviewTool(folder.path), "test");
      const { tools, prepareStep } = createAISDKTools(session);
      const { model, step } = scriptedModel([
        { calls: [{ toolName: "write_file_preview", input: { path: "s.txt", text: "streamed" } }] },
        { calls: [{ toolName: "resolve", input: { action: "apply", reason: "fine" } }] },
        { text: "written" },
      ]);

      const result = streamText({ model, tools, prepareStep, stopWhen: stepCountIs(5), prompt: "write" });
      const outputs: unknown[] = [];
      for await (const part of result.fullStream) if (part.type === "tool-result") outputs.push(part.output);

      expect(await result.text).toBe("written");
      expect(await readFile(join(folder.path, "s.txt"), "utf8")).toBe("streamed");
      expect(step(1).toolChoice).toEqual({ type: "tool", toolName: "resolve" });
      expect(outputs).toEqual([
        expect.objectContaining({ reminders: [expect.stringContaining("discard Write s.txt (")] }),
        expect.objectContaining({ content: [{ type: "text", text: "Wrote s.txt" }], reminders: [] }),
      ]);
    } finally {
      await session.dispose();
      await folder.remove();
    }
  });
});
