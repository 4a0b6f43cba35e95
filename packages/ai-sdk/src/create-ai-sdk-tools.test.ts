import { Type } from "@sinclair/typebox";
import { Session } from "@tooldock/runtime";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import { generateText, stepCountIs } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { PNG, snapshotTool } from "../test/fixture-tools.js";
import { scriptedModel, toolOutputsSeen } from "../test/scripted-model.js";
import { createAISDKTools } from "./create-ai-sdk-tools.js";

const echoTool = (name: string, options: { hidden?: boolean } = {}) =>
  defineTool({
    name,
    label: name,
    description: `Echoes for ${name}.`,
    hidden: options.hidden,
    parameters: Type.Object({ text: Type.String({ description: "What to echo" }) }),
    async execute(_toolCallId, params) {
      return textResult(params.text);
    },
  }) as CustomTool;

const executeOptions = (toolCallId: string) => ({ toolCallId, messages: [], context: {} });

describe("createAISDKTools", () => {
  let session: Session;
  afterEach(() => session.dispose());

  it("builds every session tool, resolve and hidden ones included, from the session's schemas", () => {
    session = new Session();
    session.register(echoTool("echo"), "test");
    session.register(echoTool("secret", { hidden: true }), "test");
    const { tools } = createAISDKTools(session);

    expect(Object.keys(tools)).toEqual(["resolve", "echo", "secret"]);
    expect(tools.echo?.description).toBe("Echoes for echo.");
    const schema = tools.echo?.inputSchema as { jsonSchema: unknown };
    expect(schema.jsonSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "What to echo" } },
      required: ["text"],
    });
  });

  it("offers hidden tools only when the session exposes them, and resolve only while pending", async () => {
    session = new Session({ exposeHiddenTools: ["secret"] });
    session.register(echoTool("echo"), "test");
    session.register(echoTool("secret", { hidden: true }), "test");
    session.register(echoTool("other", { hidden: true }), "test");
    const { prepareStep } = createAISDKTools(session);
    expect(prepareStep()).toEqual({ activeTools: ["echo", "secret"], toolChoice: "auto" });

    session.pending.push({ label: "Do it", apply: async () => textResult("done") });
    expect(prepareStep()).toEqual({
      activeTools: ["resolve", "echo", "secret"],
      toolChoice: { type: "tool", toolName: "resolve" },
    });
  });

  it.each([
    ["auto", "auto"],
    ["none", "none"],
    ["required", "required"],
  ] as const)("maps the session's tool choice %s", (choice, expected) => {
    session = new Session({ toolChoice: choice });
    expect(createAISDKTools(session).prepareStep().toolChoice).toBe(expected);
  });

  it("maps a named tool choice to the AI SDK's toolName", () => {
    session = new Session({ toolChoice: { type: "tool", name: "echo" } });
    session.register(echoTool("echo"), "test");
    expect(createAISDKTools(session).prepareStep().toolChoice).toEqual({ type: "tool", toolName: "echo" });
  });

  it("is a snapshot: a tool registered later is neither in the set nor offered", () => {
    session = new Session();
    session.register(echoTool("echo"), "test");
    const { tools, prepareStep } = createAISDKTools(session);
    session.register(echoTool("late"), "test");

    expect(Object.keys(tools)).toEqual(["resolve", "echo"]);
    expect(prepareStep().activeTools).toEqual(["echo"]);
    expect(Object.keys(createAISDKTools(session).tools)).toEqual(["resolve", "echo", "late"]);
  });

  it("passes partial results to onUpdate with the AI SDK's toolCallId; they never reach the output", async () => {
    session = new Session({ updateIntervalMs: 0 });
    session.register(
      defineTool({
        name: "progress",
        label: "Progress",
        description: "Reports progress.",
        parameters: Type.Object({}),
        async execute(_toolCallId, _params, onUpdate) {
          onUpdate?.(textResult("half way"));
          await new Promise((resolve) => setTimeout(resolve, 5));
          return textResult("finished");
        },
      }) as CustomTool,
      "test",
    );
    const updates: Array<[string, unknown]> = [];
    const { tools } = createAISDKTools(session, {
      onUpdate: (toolCallId, partial) => updates.push([toolCallId, partial.content]),
    });

    const output = await tools.progress?.execute?.({}, executeOptions("call-7"));

    expect(updates).toEqual([["call-7", [{ type: "text", text: "half way" }]]]);
    expect(output).toEqual({ content: [{ type: "text", text: "finished" }], reminders: [] });
  });

  it("shows the model a tool's image as a file part", async () => {
    session = new Session();
    session.register(snapshotTool, "test");
    const { tools, prepareStep } = createAISDKTools(session);
    const { model, step } = scriptedModel([
      { calls: [{ toolName: "snapshot", input: {} }] },
      { text: "a dot" },
    ]);

    await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(3), prompt: "look" });

    expect(toolOutputsSeen(step(1)).get("step0-call0")).toEqual({
      type: "content",
      value: [
        { type: "text", text: "a red dot" },
        { type: "file", mediaType: "image/png", data: { type: "data", data: PNG } },
      ],
    });
  });

  it("runs a tool replaced under the same name with its new code, and drops an unregistered one from activeTools", async () => {
    session = new Session();
    session.register(echoTool("echo"), "v1");
    session.register(echoTool("gone"), "v1");
    const { tools, prepareStep } = createAISDKTools(session);
    session.unregister("echo");
    session.register(
      defineTool({
        name: "echo",
        label: "echo v2",
        description: "Shouts.",
        parameters: Type.Object({ text: Type.String() }),
        async execute(_toolCallId, params) {
          return textResult(params.text.toUpperCase());
        },
      }) as CustomTool,
      "v2",
    );
    session.unregister("gone");

    expect(await tools.echo?.execute?.({ text: "hi" }, executeOptions("call-1"))).toEqual({
      content: [{ type: "text", text: "HI" }],
      reminders: [],
    });
    expect(prepareStep().activeTools).toEqual(["echo"]);
  });
});
