// Attack: each call listens for its reminders on the session. A listener that was not removed
// when its call ended (a throw, an abort, an error result) would stay for the session's life:
// memory growing with every call of a long conversation, and every later event fanned out to
// dead listeners. Each call's listener is removed in a `finally`, whatever the outcome.
import { Type } from "@sinclair/typebox";
import { Session } from "@tooldock/runtime";
import { type CustomTool, defineTool, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAISDKTools } from "../../src/index.js";
import { boomTool } from "../fixture-tools.js";

const waitTool = defineTool({
  name: "wait",
  label: "Wait",
  description: "Waits until aborted.",
  parameters: Type.Object({}),
  async execute(_toolCallId, _params, _onUpdate, _ctx, signal) {
    await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()));
    return textResult("stopped");
  },
}) as CustomTool;

describe("regression: no session listener outlives its call", () => {
  let session: Session;
  afterEach(() => session.dispose());

  it("removes every call's listener after results, errors, invalid input and aborts", async () => {
    session = new Session();
    session.register(boomTool, "test");
    session.register(waitTool, "test");
    let live = 0;
    const subscribe = session.subscribe.bind(session);
    vi.spyOn(session, "subscribe").mockImplementation((listener) => {
      live += 1;
      const unsubscribe = subscribe(listener);
      return () => {
        live -= 1;
        unsubscribe();
      };
    });
    const { tools } = createAISDKTools(session);
    const run = (name: string, input: unknown, abortSignal?: AbortSignal) =>
      tools[name]?.execute?.(input, { toolCallId: `${name}-call`, messages: [], context: {}, abortSignal });

    for (let round = 0; round < 50; round += 1) {
      await run("boom", {});
      await run("boom", { unexpected: [1] });
      await run("nope", {});
      await run("resolve", { action: "apply", reason: "nothing pending" });
      const controller = new AbortController();
      const waiting = run("wait", {}, controller.signal);
      expect(live).toBe(1);
      controller.abort();
      await waiting;
    }

    expect(live).toBe(0);
  });
});
