// Attack: tool names are `/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/`, so a module may register a tool
// named `__proto__`, `constructor` or `toString`. Assigned into a plain `{}`, `__proto__`
// replaced the tool set's prototype instead of adding a tool (the tool vanished, and every
// other name read through the tool object), and an `in` check let prepareStep offer
// `constructor`, inherited from Object.prototype, as if it were in the set.
import { Type } from "@sinclair/typebox";
import { Session } from "@tooldock/runtime";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import { generateText, stepCountIs } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createAISDKTools } from "../../src/index.js";
import { scriptedModel, toolNamesOffered, toolOutputsSeen } from "../scripted-model.js";

const named = (name: string) =>
  defineTool({
    name,
    label: name,
    description: `The tool called ${name}.`,
    parameters: Type.Object({}),
    async execute() {
      return textResult(`ran ${name}`);
    },
  }) as CustomTool;

describe("regression: tools named like Object.prototype members", () => {
  let session: Session;
  afterEach(() => session.dispose());

  it("keeps __proto__ and constructor as own tools of a plain-prototype set, and runs them", async () => {
    session = new Session();
    session.register(named("__proto__"), "test");
    session.register(named("constructor"), "test");
    const { tools, prepareStep } = createAISDKTools(session);

    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    expect(Object.keys(tools)).toEqual(["resolve", "__proto__", "constructor"]);
    expect(prepareStep().activeTools).toEqual(["__proto__", "constructor"]);

    const { model, step } = scriptedModel([
      {
        calls: [
          { toolName: "__proto__", input: {} },
          { toolName: "constructor", input: {} },
        ],
      },
      { text: "done" },
    ]);
    await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(3), prompt: "go" });
    expect(toolNamesOffered(step(0))).toEqual(["__proto__", "constructor"]);
    const seen = toolOutputsSeen(step(1));
    expect(seen.get("step0-call0")).toEqual({ type: "text", value: "ran __proto__" });
    expect(seen.get("step0-call1")).toEqual({ type: "text", value: "ran constructor" });
  });

  it("does not offer an inherited name registered after the snapshot", () => {
    session = new Session();
    const { prepareStep } = createAISDKTools(session);
    session.register(named("constructor"), "test");
    session.register(named("toString"), "test");
    expect(prepareStep().activeTools).toEqual([]);
  });
});
