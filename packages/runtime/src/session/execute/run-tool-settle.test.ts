import { Type } from "@sinclair/typebox";
import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../session.js";

// What `execute` may hand back besides an ordinary promise, and what the session makes of it.
function toolReturning(execute: () => unknown) {
  return {
    name: "odd",
    label: "Odd",
    description: "Returns something unusual.",
    parameters: Type.Object({}),
    execute: execute as () => Promise<AgentToolResult>,
  };
}

async function run(execute: () => unknown): Promise<AgentToolResult> {
  const session = new Session({ executeTimeoutMs: 5_000 });
  session.register(toolReturning(execute));
  return session.execute({ toolCallId: "c", name: "odd", params: {} });
}

describe("how runTool follows what execute returned", () => {
  it("takes a plain (non-promise) result", async () => {
    expect(await run(() => textResult("sync"))).toEqual(textResult("sync"));
  });

  it("adopts a thenable that is not a promise, as await would", async () => {
    // biome-ignore lint/suspicious/noThenProperty: the case under test is a thenable that is not a promise
    const thenable = { then: (resolve: (value: unknown) => void) => resolve(textResult("thenable")) };
    expect(await run(() => thenable)).toEqual(textResult("thenable"));
  });

  it("turns a synchronous throw into the tool's error result", async () => {
    const result = await run(() => {
      throw new Error("sync boom");
    });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: expect.stringMatching(/^Tool "odd" failed: sync boom\./),
    });
  });

  it("follows a native promise with the intrinsic then, not an own `then` that never calls back", async () => {
    const promise = Promise.resolve(textResult("native"));
    // biome-ignore lint/suspicious/noThenProperty: the case under test is a promise with an own then
    Object.defineProperty(promise, "then", { value: () => undefined });
    expect(await run(() => promise)).toEqual(textResult("native"));
  });

  it("counts a promise whose constructor getter throws as a failed call", async () => {
    const promise = Promise.resolve(textResult("never seen"));
    Object.defineProperty(promise, "constructor", {
      get() {
        throw new Error("no constructor");
      },
    });
    const result = await run(() => promise);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("no constructor") });
  });
});
