import { Type } from "@sinclair/typebox";
import type { CustomTool, CustomToolContext, CustomToolSessionEvent } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "./session.js";

/** A tool that answers with what pi's tools read on their context. */
function reader(seen: { events: CustomToolSessionEvent[]; ctx?: CustomToolContext }): CustomTool {
  return {
    name: "reader",
    label: "Reader",
    description: "Reports the conversation.",
    parameters: Type.Object({}),
    async execute(_id, _params, _onUpdate, ctx) {
      const manager = ctx.sessionManager;
      const text = JSON.stringify({
        entries: manager?.getEntries().length,
        branch: manager?.getBranch().length,
        file: manager?.getSessionFile() ?? null,
        id: manager?.getSessionId(),
        cwd: manager?.getCwd(),
        model: ctx.model?.id ?? null,
        idle: ctx.isIdle?.(),
        queued: ctx.hasQueuedMessages?.(),
      });
      return { content: [{ type: "text", text }] };
    },
    onSession(event, ctx) {
      seen.events.push(event);
      seen.ctx = ctx;
    },
  };
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe("the conversation tools see (pi's ctx.sessionManager, model, isIdle, hasQueuedMessages)", () => {
  it("is empty by default: no entries, no file, no model, nothing queued, busy inside a call", async () => {
    const seen = { events: [] as CustomToolSessionEvent[] };
    const session = new Session({ sessionId: "s1", cwd: "/repo" });
    session.register(reader(seen));
    await session.start();
    const result = await session.execute({ toolCallId: "c", name: "reader", params: {} });
    expect(JSON.parse(textOf(result))).toEqual({
      entries: 0,
      branch: 0,
      file: null,
      id: "s1",
      cwd: "/repo",
      model: null,
      idle: false,
      queued: false,
    });
    expect(seen.events).toEqual([
      { reason: "start", entries: [], sessionFile: null, previousSessionFile: null },
    ]);
    expect((seen as { ctx?: CustomToolContext }).ctx?.isIdle?.()).toBe(true);
    await session.dispose();
  });

  it("reads the host's conversation when a tool asks, and sends it with each onSession event", async () => {
    const entries: { type: string; [field: string]: unknown }[] = [{ type: "message", id: "1" }];
    let model = { provider: "anthropic", id: "model-a" };
    const seen = { events: [] as CustomToolSessionEvent[] };
    const session = new Session({
      conversation: {
        entries: () => entries,
        sessionFile: () => "/sessions/today.jsonl",
        model: () => model,
        hasQueuedMessages: () => true,
        isIdle: () => true,
      },
    });
    session.register(reader(seen));
    await session.start();
    entries.push({ type: "message", id: "2" });
    model = { provider: "openai", id: "model-b" };
    const result = await session.execute({ toolCallId: "c", name: "reader", params: {} });
    expect(JSON.parse(textOf(result))).toMatchObject({
      entries: 2,
      file: "/sessions/today.jsonl",
      model: "model-b",
      idle: true,
      queued: true,
    });
    expect(seen.events[0]).toEqual({
      reason: "start",
      entries: [{ type: "message", id: "1" }],
      sessionFile: "/sessions/today.jsonl",
      previousSessionFile: null,
    });
    // The lifecycle context reads the model when asked, not when the session was made.
    expect(seen.events.length).toBe(1);
    const ctx = (seen as { ctx?: CustomToolContext }).ctx;
    expect(ctx?.model?.id).toBe("model-b");
    // A tool gets a copy of the list: changing it does not change the host's.
    ctx?.sessionManager?.getEntries().pop();
    expect(entries).toHaveLength(2);
    await session.dispose();
  });
});
