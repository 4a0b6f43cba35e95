import { Type } from "@sinclair/typebox";
import { type CustomTool, type CustomToolContext, TooldockError, textResult } from "@tooldock/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { PendingActionStore } from "../pending/pending-action-store.js";
import { runningToolCall, trackToolCalls } from "./execute/tool-call-scope.js";
import { Session } from "./session.js";
import type { SessionEvent } from "./session-events.js";

const apply = async () => textResult("applied");

/** Stages `labels` through `ctx`, awaiting between them, then returns. */
function stager(name: string, labels: string[]): CustomTool {
  return {
    name,
    label: name,
    description: "Stages actions",
    parameters: Type.Object({}),
    async execute(_id, _params, _onUpdate, ctx) {
      for (const label of labels) {
        await Promise.resolve();
        ctx.pushPendingAction({ label, apply });
      }
      return textResult(`staged ${labels.join(", ")}`);
    },
  };
}

const sessions: Session[] = [];
function session(options: ConstructorParameters<typeof Session>[0] = {}): Session {
  const created = new Session({ pendingPolicy: "allow", ...options });
  sessions.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((each) => each.dispose()));
});

function record(target: Session): SessionEvent[] {
  const events: SessionEvent[] = [];
  target.subscribe((event) => events.push(event));
  return events;
}

const summary = (events: SessionEvent[]) =>
  events.map((event) =>
    event.type === "reminder"
      ? `reminder ${event.record.label} ${event.toolCallId ?? "-"}`
      : event.type === "action-pending"
        ? `pending ${event.record.label}`
        : "toolCallId" in event
          ? `${event.type} ${event.toolCallId}`
          : event.type,
  );

describe("the reminder of an action staged during a call", () => {
  it("comes after that call's tool-call-end and carries its toolCallId, in push order", async () => {
    const s = session();
    s.register(stager("two", ["first", "second"]));
    const events = record(s);
    await s.execute({ toolCallId: "c1", name: "two", params: {} });
    expect(summary(events)).toEqual([
      "tool-call-start c1",
      "pending first",
      "pending second",
      "tool-call-end c1",
      "reminder first c1",
      "reminder second c1",
    ]);
    const reminder = events.at(-1);
    expect(reminder?.type === "reminder" && reminder.text).toContain("apply or discard second");
  });

  it("is emitted before execute resolves, so a host appends it right after the tool result", async () => {
    const s = session();
    s.register(stager("one", ["x"]));
    const events = record(s);
    const pending = s.execute({ toolCallId: "c1", name: "one", params: {} });
    await pending;
    expect(events.some((event) => event.type === "reminder")).toBe(true);
  });

  it("keeps each call's reminders with its own call when calls overlap", async () => {
    const s = session();
    s.register(stager("a", ["a1", "a2"]));
    s.register(stager("b", ["b1"]));
    const events = record(s);
    await Promise.all([
      s.execute({ toolCallId: "ca", name: "a", params: {} }),
      s.execute({ toolCallId: "cb", name: "b", params: {} }),
    ]);
    const lines = summary(events);
    for (const [label, call] of [
      ["a1", "ca"],
      ["a2", "ca"],
      ["b1", "cb"],
    ] as const) {
      expect(lines.indexOf(`reminder ${label} ${call}`)).toBeGreaterThan(
        lines.indexOf(`tool-call-end ${call}`),
      );
    }
  });

  it("is left out for an action no longer pending when the call ends", async () => {
    const s = session();
    s.register({
      ...stager("fleeting", []),
      async execute(_id, _params, _onUpdate, ctx) {
        ctx.pushPendingAction({ label: "gone", apply });
        s.pending.pop();
        return textResult("staged and dropped");
      },
    });
    const events = record(s);
    await s.execute({ toolCallId: "c1", name: "fleeting", params: {} });
    expect(events.filter((event) => event.type === "reminder")).toEqual([]);
  });

  it("is emitted at once, without toolCallId, for a push outside any call", () => {
    const s = session();
    const events = record(s);
    s.pending.push({ label: "outside", apply });
    expect(summary(events)).toEqual(["pending outside", "reminder outside -"]);
  });

  it("is emitted once when two sessions share a store: by the calling one, after its call", async () => {
    const pending = new PendingActionStore();
    const a = session({ pending });
    const b = session({ pending });
    a.register(stager("one", ["shared"]));
    const inA = record(a);
    const inB = record(b);
    await a.execute({ toolCallId: "c1", name: "one", params: {} });
    expect(summary(inA).filter((line) => line.startsWith("reminder"))).toEqual(["reminder shared c1"]);
    expect(summary(inB).filter((line) => line.startsWith("reminder"))).toEqual(["reminder shared -"]);
  });

  it("is emitted at once for a direct store push, even inside a call (only ctx and pi are the call's)", async () => {
    const s = session();
    s.register({
      ...stager("direct", []),
      async execute() {
        s.pending.push({ label: "direct", apply });
        return textResult("pushed on the store");
      },
    });
    const events = record(s);
    await s.execute({ toolCallId: "c1", name: "direct", params: {} });
    expect(summary(events)).toEqual([
      "tool-call-start c1",
      "pending direct",
      "reminder direct -",
      "tool-call-end c1",
    ]);
  });
});

describe("the call scope", () => {
  it("is what runningToolCall returns inside a call, across awaits and timers, and nothing outside", async () => {
    const s = session({ sessionId: "S" });
    const seen: unknown[] = [];
    s.register({
      ...stager("probe", []),
      async execute(id) {
        seen.push(runningToolCall()?.toolCallId);
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(runningToolCall()?.sessionId, runningToolCall()?.toolName, runningToolCall()?.ended);
        return textResult(id);
      },
    });
    trackToolCalls(); // as a ToolHost does
    expect(runningToolCall()).toBeUndefined();
    await s.execute({ toolCallId: "p1", name: "probe", params: {} });
    expect(seen).toEqual(["p1", "S", "probe", false]);
    expect(runningToolCall()).toBeUndefined();
  });

  it("refuses a ctx push in an onSession hook with E_NO_CALL", async () => {
    const s = session();
    let error: unknown;
    s.register({
      ...stager("hooked", []),
      onSession(_event, ctx: CustomToolContext) {
        try {
          ctx.pushPendingAction({ label: "at start", apply });
        } catch (thrown) {
          error = thrown;
        }
      },
    });
    await s.start();
    expect(TooldockError.isInstance(error) && error.code).toBe("E_NO_CALL");
    expect((error as Error).message).toContain('"at start" from an onSession hook');
    expect(s.pending.size).toBe(0);
  });
});
