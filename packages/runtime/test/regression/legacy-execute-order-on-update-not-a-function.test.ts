import { Type } from "@sinclair/typebox";
import type { AgentToolResult, CustomTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session, type SessionEvent } from "../../src/index.js";

// Attack: a tool written for pi's older argument order, execute(toolCallId, params, signal,
// onUpdate, ctx), was called in Tooldock's order: `onUpdate is not a function` (it got the
// context) and `signal.addEventListener is not a function` (it got the update callback).
// Fixed: the order is detected from the parameter names and the tool is called in its own
// order, with one W_LEGACY_EXECUTE_ORDER warning.
describe("a tool written for the older execute order", () => {
  const legacyTool = {
    name: "legacy",
    label: "Legacy",
    description: "Streams one update, then answers with what it was given.",
    parameters: Type.Object({ text: Type.String() }),
    async execute(
      _toolCallId: string,
      params: { text: string },
      signal: AbortSignal | undefined,
      onUpdate: ((partial: AgentToolResult) => void) | undefined,
      ctx: { cwd: string } | undefined,
    ) {
      signal?.addEventListener("abort", () => {});
      onUpdate?.({ content: [{ type: "text", text: `working on ${params.text}` }] });
      const seen = [signal instanceof AbortSignal, typeof onUpdate, typeof ctx?.cwd].join(",");
      return { content: [{ type: "text" as const, text: seen }] };
    },
  };

  it("gets the signal third, onUpdate fourth and the context fifth, with one warning", async () => {
    const session = new Session({ cwd: "/repo", updateIntervalMs: 0 });
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    session.register(legacyTool as unknown as CustomTool, "tools/legacy.ts");
    const updates: AgentToolResult[] = [];
    const result = await session.execute({
      toolCallId: "c1",
      name: "legacy",
      params: { text: "a" },
      onUpdate: (partial) => updates.push(partial),
    });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "true,function,string" }]);
    expect(updates.map((update) => update.content)).toEqual([[{ type: "text", text: "working on a" }]]);
    const warnings = events.filter((event) => event.type === "tool-warning");
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "W_LEGACY_EXECUTE_ORDER",
        toolName: "legacy",
        origin: "tools/legacy.ts",
      }),
    ]);
  });

  it("leaves a tool written for the current order alone", async () => {
    const session = new Session();
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    session.register({
      ...legacyTool,
      name: "current",
      async execute(_id: string, _params: unknown, onUpdate: unknown, ctx: unknown, signal: unknown) {
        const seen = [typeof onUpdate, typeof ctx, signal instanceof AbortSignal].join(",");
        return { content: [{ type: "text" as const, text: seen }] };
      },
    } as unknown as CustomTool);
    const result = await session.execute({
      toolCallId: "c1",
      name: "current",
      params: { text: "a" },
      onUpdate: () => {},
    });
    expect(result.content).toEqual([{ type: "text", text: "function,object,true" }]);
    expect(events.filter((event) => event.type === "tool-warning")).toEqual([]);
  });
});
