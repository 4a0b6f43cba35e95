import { Type } from "@sinclair/typebox";
import { type AgentToolResult, type CustomTool, textResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingActionEvent } from "../../src/pending/pending-action-record.js";
import { PendingActionStore } from "../../src/pending/pending-action-store.js";
import { Session } from "../../src/session/session.js";
import type { SessionEvent } from "../../src/session/session-events.js";
import type { SessionToolContext } from "../../src/session/tool-context.js";
import { textOf } from "../fake-context.js";

// The attack: a `reject` that never settles. `tooldock call` exited 13 with no output and
// `session.dispose()` never resolved; a discard through `resolve` held the store for good.

const never = () => new Promise<AgentToolResult | undefined>(() => {});

function stagingTool(extra: Partial<CustomTool> = {}): CustomTool {
  return {
    name: "stage",
    label: "Stage",
    description: "stages one change whose cleanup never ends",
    parameters: Type.Object({ label: Type.String() }),
    async execute(_id, params, _onUpdate, ctx) {
      const { label } = params as { label: string };
      (ctx as SessionToolContext).pushPendingAction({
        label,
        apply: async () => textResult("applied"),
        reject: never,
      });
      return textResult(`Preview of ${label}`);
    },
    ...extra,
  };
}

/** Tracks whether a promise has settled, without awaiting it. */
function track(promise: Promise<unknown>): { settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

describe("regression: a reject that never settles", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("does not keep dispose() from settling: the rejects run side by side, under one deadline", async () => {
    const session = new Session({ resolveTimeoutMs: 1_000, pendingPolicy: "allow" });
    session.register(stagingTool());
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    await session.execute({ toolCallId: "t1", name: "stage", params: { label: "first" } });
    await session.execute({ toolCallId: "t2", name: "stage", params: { label: "second" } });

    const disposing = track(session.dispose());
    await vi.advanceTimersByTimeAsync(999);
    expect(disposing.settled).toBe(false);
    // Both rejects started at once (top first), so one deadline ends both.
    await vi.advanceTimersByTimeAsync(1);
    expect(disposing.settled).toBe(true);

    const discarded = events.filter((event) => event.type === "action-discarded") as Array<
      Extract<PendingActionEvent, { type: "action-discarded" }>
    >;
    expect(discarded.map((event) => [event.record.label, event.reason, event.timedOut])).toEqual([
      ["second", "session disposed", true],
      ["first", "session disposed", true],
    ]);
    expect((discarded[0]?.error as { code?: string } | undefined)?.code).toBe("E_CALLBACK_TIMEOUT");
    expect(session.pending.size).toBe(0);
  });

  it("counts a discard through resolve as done, reports the timeout and frees the store", async () => {
    const session = new Session({ executeTimeoutMs: 2_000, pendingPolicy: "allow" });
    session.register(stagingTool());
    await session.execute({ toolCallId: "t1", name: "stage", params: { label: "first" } });
    await session.execute({ toolCallId: "t2", name: "stage", params: { label: "second" } });
    const discarding = session.execute({
      toolCallId: "t3",
      name: "resolve",
      params: { action: "discard", reason: "not wanted" },
    });
    await vi.advanceTimersByTimeAsync(2_000);
    const result = await discarding;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Discarded: second. Reason: not wanted\n" +
        "The discard cleanup did not finish within 2 s and was given up; it may still be running. " +
        "The action is no longer pending; tell the user the cleanup may be incomplete.",
    );
    expect(result.details).toMatchObject({ action: "discard", label: "second", timedOut: true });
    expect(session.pending.list().map((record) => record.label)).toEqual(["first"]);

    // Not locked: the next resolve runs.
    const applied = await session.execute({
      toolCallId: "t4",
      name: "resolve",
      params: { action: "apply", reason: "this one" },
    });
    expect(textOf(applied)).toBe("applied");
  });

  it("store.clear() settles within the store's callbackTimeoutMs per reject", async () => {
    const store = new PendingActionStore({ callbackTimeoutMs: 500 });
    store.push({ label: "a", apply: async () => textResult("a"), reject: never });
    const clearing = track(store.clear("host cleared"));
    await vi.advanceTimersByTimeAsync(500);
    expect(clearing.settled).toBe(true);
    expect(store.size).toBe(0);
  });

  it("does not keep dispose() from settling through an onSession hook that never settles", async () => {
    const session = new Session({ resolveTimeoutMs: 1_000 });
    const hook = vi.fn(() => new Promise<void>(() => {}));
    session.register(stagingTool({ onSession: hook }));
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    const starting = track(session.start());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(starting.settled).toBe(true);
    const disposing = track(session.dispose());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(disposing.settled).toBe(true);
    expect(hook).toHaveBeenCalledTimes(2);
    expect(
      events.flatMap((event) => (event.type === "tool-hook-failed" ? [event.event.reason] : [])),
    ).toEqual(["start", "shutdown"]);
  });
});
