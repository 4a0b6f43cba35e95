import { Type } from "@sinclair/typebox";
import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import { textOf } from "../../test/fake-context.js";
import { echoTool } from "../../test/tools.js";
import { Session } from "./session.js";
import type { SessionEvent } from "./session-events.js";
import type { SessionToolContext } from "./tool-context.js";

describe("Session after dispose()", () => {
  it("refuses execute with an error result saying the session was disposed, without running the tool", async () => {
    const session = new Session();
    const execute = vi.fn(async () => textResult("ran"));
    session.register(echoTool("echo", { execute }));
    const events: SessionEvent["type"][] = [];
    session.subscribe((event) => events.push(event.type));
    await session.dispose();
    const result = await session.execute({ toolCallId: "t", name: "echo", params: { text: "x" } });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Cannot run "echo": this session was disposed and runs no more tool calls. Tell the user; the host has to start a new session.',
        },
      ],
      isError: true,
    });
    expect(execute).not.toHaveBeenCalled();
    expect(events).toEqual(["tool-call-start", "tool-call-end"]);
  });

  it("stops a call in flight: it answers at once, its signal is aborted and its later push is refused", async () => {
    const session = new Session();
    let signal: AbortSignal | undefined;
    let context: SessionToolContext | undefined;
    session.register({
      name: "slow",
      label: "Slow",
      description: "never finishes on its own",
      parameters: Type.Object({}),
      execute: (_id, _params, _onUpdate, ctx, toolSignal) => {
        signal = toolSignal;
        context = ctx as SessionToolContext;
        return new Promise<AgentToolResult>(() => {});
      },
    });
    const call = session.execute({ toolCallId: "t", name: "slow", params: {} });
    await session.dispose();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Tool "slow" was stopped before it finished because the session was disposed. Its work may be partial.',
    );
    expect(signal?.aborted).toBe(true);
    expect(() =>
      context?.pushPendingAction({ label: "After dispose", apply: async () => textResult("x") }),
    ).toThrow(/has already ended/);
    expect(session.pending.size).toBe(0);
  });
});

describe("the signal dispose() aborts", () => {
  it("runs many calls in parallel without a listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const session = new Session();
      session.register(echoTool());
      const calls = Array.from({ length: 30 }, (_, index) =>
        session.execute({ toolCallId: `t${index}`, name: "echo", params: { text: String(index) } }),
      );
      expect((await Promise.all(calls)).map(textOf)).toHaveLength(30);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});
