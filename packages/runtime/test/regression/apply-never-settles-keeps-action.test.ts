import { Type } from "@sinclair/typebox";
import { type AgentToolResult, type CustomTool, textResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingActionEvent } from "../../src/pending/pending-action-record.js";
import { Session } from "../../src/session/session.js";
import type { SessionEvent } from "../../src/session/session-events.js";
import type { SessionToolContext } from "../../src/session/tool-context.js";
import { deferred, fakeContext, textOf } from "../fake-context.js";

// The attack: an `apply` that never settles. The resolve call timed out (executeTimeoutMs),
// the action was gone (neither applied nor pending), and the store stayed locked for good:
// every later resolve answered "Another resolve is still running".

const never = () => new Promise<AgentToolResult>(() => {});

function stagingTool(apply: () => Promise<AgentToolResult>): CustomTool {
  return {
    name: "stage",
    label: "Stage",
    description: "stages one change",
    parameters: Type.Object({}),
    async execute(_id, _params, _onUpdate, ctx) {
      const record = (ctx as SessionToolContext).pushPendingAction({
        label: "Rewrite a.ts",
        apply,
        reject: async () => undefined,
      });
      return textResult(`Preview (pending ${record.id})`);
    },
  };
}

describe("regression: an apply that never settles", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("puts the action back on top (same record) and frees the store at the deadline", async () => {
    const session = new Session({ executeTimeoutMs: 1_000 });
    session.register(stagingTool(never));
    await session.execute({ toolCallId: "t1", name: "stage", params: {} });
    const record = session.pending.peek();
    expect(record).toBeDefined();

    const applying = session.execute({
      toolCallId: "t2",
      name: "resolve",
      params: { action: "apply", reason: "looks right" },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    const result = await applying;

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Apply of "Rewrite a.ts" did not finish within 1 s');
    expect(textOf(result)).toContain(`The action is still pending (id ${record?.id})`);
    expect(result.details).toMatchObject({ action: "apply", id: record?.id, timedOut: true });
    // Same id, same frozen record, on top.
    expect(session.pending.peek()).toBe(record);
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });

    // The store is not locked: the next resolve acts on it.
    const discarding = await session.execute({
      toolCallId: "t3",
      name: "resolve",
      params: { action: "discard", reason: "give up" },
    });
    expect(discarding.isError).toBeUndefined();
    expect(textOf(discarding)).toBe("Discarded: Rewrite a.ts. Reason: give up");
    expect(session.pending.size).toBe(0);
  });

  it("uses resolveTimeoutMs over executeTimeoutMs for the resolve call", async () => {
    const session = new Session({ executeTimeoutMs: 1_000, resolveTimeoutMs: 5_000 });
    session.register(stagingTool(never));
    await session.execute({ toolCallId: "t1", name: "stage", params: {} });
    let answered = false;
    const applying = session
      .execute({ toolCallId: "t2", name: "resolve", params: { action: "apply", reason: "go" } })
      .then((result) => {
        answered = true;
        return result;
      });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answered).toBe(false); // the execute deadline does not cut the resolve short
    await vi.advanceTimersByTimeAsync(4_000);
    expect(textOf(await applying)).toContain("did not finish within 5 s");
    expect(session.pending.size).toBe(1);
  });

  it("reports an apply that settles after its deadline and leaves the stack alone", async () => {
    const late = deferred<AgentToolResult>();
    const session = new Session({ resolveTimeoutMs: 100 });
    session.register(stagingTool(() => late.promise));
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    await session.execute({ toolCallId: "t1", name: "stage", params: {} });
    const record = session.pending.peek();
    const applying = session.execute({
      toolCallId: "t2",
      name: "resolve",
      params: { action: "apply", reason: "go" },
    });
    await vi.advanceTimersByTimeAsync(100);
    await applying;
    const failed = events.find((event) => event.type === "action-apply-failed") as
      | Extract<PendingActionEvent, { type: "action-apply-failed" }>
      | undefined;
    expect(failed?.timedOut).toBe(true);
    expect((failed?.error as { code?: string } | undefined)?.code).toBe("E_CALLBACK_TIMEOUT");

    late.resolve(textResult("applied after all"));
    await vi.advanceTimersByTimeAsync(0);
    expect(events.at(-1)).toEqual({
      type: "action-settled-late",
      record,
      callback: "apply",
      outcome: "fulfilled",
      value: textResult("applied after all"),
    });
    expect(session.pending.peek()).toBe(record); // still pending: resolve it again or discard it
  });

  it("after dispose() cleared the stack meanwhile, a timed-out apply is discarded, not restored", async () => {
    const session = new Session({ resolveTimeoutMs: 100 });
    session.register(stagingTool(never));
    await session.execute({ toolCallId: "t1", name: "stage", params: {} });
    const store = session.pending;
    const events: PendingActionEvent[] = [];
    store.subscribe((event) => events.push(event));
    const resolveTool = session.get("resolve");
    const applying = resolveTool?.execute(
      "t2",
      { action: "apply", reason: "go" },
      undefined,
      fakeContext({ sessionId: session.id, cwd: session.cwd, hasPendingActions: () => store.hasPending }),
    );
    await store.clear("session disposed");
    await vi.advanceTimersByTimeAsync(100);
    const result = await applying;
    expect(result?.isError).toBe(true);
    expect(textOf(result as AgentToolResult)).toContain("the action was discarded and is no longer pending");
    expect(store.size).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: "action-discarded", timedOut: true });
  });
});
