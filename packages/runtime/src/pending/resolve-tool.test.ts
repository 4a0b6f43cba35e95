import { type AgentToolResult, type CustomToolPendingAction, textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import { deferred, fakeContext, textOf } from "../../test/fake-context.js";
import { Session } from "../session/session.js";
import type { PendingActionEvent } from "./pending-action-record.js";
import { PendingActionStore } from "./pending-action-store.js";
import { createResolveTool, RESOLVE_TOOL_NAME } from "./resolve-tool.js";

function setup() {
  let next = 0;
  const store = new PendingActionStore({ createId: () => `id-${++next}`, now: () => 0 });
  const tool = createResolveTool(store);
  const events: PendingActionEvent[] = [];
  store.subscribe((event) => events.push(event));
  const resolve = (action: "apply" | "discard", reason = "because") =>
    tool.execute("call", { action, reason }, undefined, fakeContext());
  return { store, tool, events, resolve };
}

function pending(label: string, extra: Partial<CustomToolPendingAction> = {}): CustomToolPendingAction {
  return { label, apply: async () => textResult(`did ${label}`), ...extra };
}

describe("createResolveTool", () => {
  it("is the hidden tool named resolve, labelled Resolve, with both parameters required", () => {
    const { tool } = setup();
    expect(RESOLVE_TOOL_NAME).toBe("resolve");
    expect(tool.name).toBe("resolve");
    expect(tool.label).toBe("Resolve");
    expect(tool.hidden).toBe(true);
    expect(tool.parameters.required).toEqual(["action", "reason"]);
    expect(tool.parameters.properties.action.anyOf.map((option: { const: string }) => option.const)).toEqual([
      "apply",
      "discard",
    ]);
  });

  it.each(["apply", "discard"] as const)(
    "with nothing pending, %s returns the exact error",
    async (action) => {
      const { resolve } = setup();
      const result = await resolve(action);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("No pending action to resolve. Nothing to apply or discard.");
    },
  );

  it("applies the top action with the reason and carries its content and details", async () => {
    const { store, resolve, events } = setup();
    const apply = vi.fn(async () => textResult("Wrote 2 files", { written: 2 }));
    store.push(pending("older"));
    const record = store.push({ label: "Write 2 file(s)", apply, sourceToolName: "writer" });
    const result = await resolve("apply", "the diff is right");
    expect(apply).toHaveBeenCalledWith("the diff is right");
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Wrote 2 files");
    expect(result.details).toEqual({
      written: 2,
      action: "apply",
      reason: "the diff is right",
      id: record.id,
      label: "Write 2 file(s)",
      sourceToolName: "writer",
    });
    expect(store.list().map((entry) => entry.label)).toEqual(["older"]);
    expect(events.at(-1)).toMatchObject({ type: "action-applied", record, result });
  });

  it("says Applied: <label> when apply returns no content", async () => {
    const { store, resolve } = setup();
    store.push(pending("Touch a.txt", { apply: async () => ({ content: [] }) }));
    expect(textOf(await resolve("apply"))).toBe("Applied: Touch a.txt");
    store.push(pending("Touch b.txt", { apply: async () => undefined as unknown as AgentToolResult }));
    expect(textOf(await resolve("apply"))).toBe("Applied: Touch b.txt");
  });

  it("regression: a malformed content from apply does not turn a done apply into an error", async () => {
    const session = new Session();
    const apply = vi.fn(
      async () => ({ content: [{ type: "text", text: 42 }] }) as unknown as AgentToolResult,
    );
    session.pending.push(pending("Touch c.txt", { apply }));
    const result = await session.execute({
      toolCallId: "call",
      name: RESOLVE_TOOL_NAME,
      params: { action: "apply", reason: "looks right" },
    });
    expect(apply).toHaveBeenCalledOnce();
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Applied: Touch c.txt");
    expect(session.pending.hasPending).toBe(false);
  });

  it("regression: callback details that are not JSON do not strip the resolve details", async () => {
    const session = new Session();
    const record = session.pending.push(
      pending("Count", { apply: async () => textResult("done", { n: 1n }) }),
    );
    const result = await session.execute({
      toolCallId: "call",
      name: RESOLVE_TOOL_NAME,
      params: { action: "apply", reason: "ok" },
    });
    expect(textOf(result)).toBe("done");
    expect(result.details).toEqual({
      action: "apply",
      reason: "ok",
      id: record.id,
      label: "Count",
      sourceToolName: "custom_tool",
    });
  });

  it("keeps non-object callback details under details and lets resolve fields win", async () => {
    const { store, resolve } = setup();
    store.push(pending("a", { apply: async () => textResult("ok", "just a string") }));
    expect((await resolve("apply")).details).toMatchObject({ details: "just a string", label: "a" });
    store.push(pending("b", { apply: async () => textResult("ok", { label: "spoofed", extra: 1 }) }));
    expect((await resolve("apply")).details).toMatchObject({ label: "b", extra: 1 });
  });

  it("discards with the default text when there is no reject", async () => {
    const { store, resolve, events } = setup();
    const apply = vi.fn(async () => textResult("no"));
    const record = store.push({ label: "Delete tmp/", apply });
    const result = await resolve("discard", "not needed");
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Discarded: Delete tmp/. Reason: not needed");
    expect(result.details).toEqual({
      action: "discard",
      reason: "not needed",
      id: record.id,
      label: "Delete tmp/",
      sourceToolName: "custom_tool",
    });
    expect(apply).not.toHaveBeenCalled();
    expect(store.hasPending).toBe(false);
    expect(events.at(-1)).toEqual({ type: "action-discarded", record, reason: "not needed" });
  });

  it("discards through reject and uses its result when it returns one", async () => {
    const { store, resolve } = setup();
    const reject = vi.fn(async (reason: string) => textResult(`Cleaned up (${reason})`, { removed: 1 }));
    store.push(pending("Stage", { reject }));
    const result = await resolve("discard", "wrong file");
    expect(reject).toHaveBeenCalledWith("wrong file");
    expect(textOf(result)).toBe("Cleaned up (wrong file)");
    expect(result.details).toMatchObject({ removed: 1, action: "discard", label: "Stage" });
  });

  it("uses the default text when reject returns undefined", async () => {
    const { store, resolve } = setup();
    store.push(pending("Stage", { reject: async () => undefined }));
    expect(textOf(await resolve("discard", "no"))).toBe("Discarded: Stage. Reason: no");
  });

  it("still discards when reject throws and reports the error", async () => {
    const { store, resolve, events } = setup();
    const record = store.push(
      pending("Stage", {
        reject: async () => {
          throw new Error("temp dir locked");
        },
      }),
    );
    const result = await resolve("discard", "no");
    expect(store.hasPending).toBe(false);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Discarded: Stage. Reason: no");
    expect(textOf(result)).toContain("temp dir locked");
    expect(result.details).toMatchObject({ id: record.id, error: "temp dir locked" });
    expect(events.at(-1)).toMatchObject({
      type: "action-discarded",
      record,
      error: new Error("temp dir locked"),
    });
  });

  it("puts the same action back on top when apply throws, and says so", async () => {
    const { store, resolve, events } = setup();
    store.push(pending("below"));
    let attempts = 0;
    const record = store.push(
      pending("Write config", {
        apply: async () => {
          attempts += 1;
          if (attempts === 1) throw new Error("EACCES: permission denied");
          return textResult("written");
        },
      }),
    );
    const failed = await resolve("apply", "go");
    expect(failed.isError).toBe(true);
    const text = textOf(failed);
    expect(text).toContain("Apply failed");
    expect(text).toContain("Write config");
    expect(text).toContain("EACCES: permission denied");
    expect(text).toContain("still pending");
    expect(store.peek()).toBe(record);
    expect(store.size).toBe(2);
    expect(events.at(-1)).toEqual({
      type: "action-apply-failed",
      record,
      error: new Error("EACCES: permission denied"),
    });
    expect(events.some((event) => event.type === "action-pending" && event.record === record)).toBe(true);
    expect(events.filter((event) => event.type === "action-pending")).toHaveLength(2);

    const retried = await resolve("apply", "fixed permissions");
    expect(textOf(retried)).toBe("written");
    expect(store.list().map((entry) => entry.label)).toEqual(["below"]);
  });

  it.each([
    ["a string", "disk full", "disk full"],
    ["null", null, "null"],
    ["an object", { code: 7 }, '{"code":7}'],
  ])("reports a non-Error apply failure (%s) and restores the action", async (_name, thrown, shown) => {
    const { store, resolve } = setup();
    const record = store.push(
      pending("X", {
        apply: async () => {
          throw thrown;
        },
      }),
    );
    const result = await resolve("apply");
    expect(textOf(result)).toContain(`Apply failed for "X": ${shown}.`);
    expect(store.peek()?.id).toBe(record.id);
  });

  it("treats an isError result from apply as a failed apply", async () => {
    const { store, resolve } = setup();
    const record = store.push(
      pending("X", {
        apply: async () => ({ content: [{ type: "text", text: "file changed" }], isError: true }),
      }),
    );
    const result = await resolve("apply");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Apply failed for "X": file changed.');
    expect(store.peek()).toBe(record);
  });

  it("refuses a second resolve while one is in flight and changes nothing", async () => {
    const { store, resolve } = setup();
    const gate = deferred<AgentToolResult>();
    const apply = vi.fn(() => gate.promise);
    store.push(pending("second"));
    store.push(pending("first", { apply }));
    const inFlight = resolve("apply");
    const refused = await resolve("discard");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("Another resolve is still running");
    expect(store.list().map((entry) => entry.label)).toEqual(["second"]);
    gate.resolve(textResult("done"));
    expect(textOf(await inFlight)).toBe("done");
    expect(apply).toHaveBeenCalledOnce();
    expect(textOf(await resolve("discard"))).toBe("Discarded: second. Reason: because");
  });

  it("shares the one-at-a-time rule between two resolve tools of the same store", async () => {
    const { store, resolve } = setup();
    const other = createResolveTool(store);
    const gate = deferred<AgentToolResult>();
    store.push(pending("slow", { apply: () => gate.promise }));
    const inFlight = resolve("apply");
    const refused = await other.execute("c2", { action: "apply", reason: "r" }, undefined, fakeContext());
    expect(textOf(refused)).toContain("Another resolve is still running");
    gate.resolve(textResult("ok"));
    await inFlight;
  });

  it("does not restore an action whose apply fails after the store was cleared", async () => {
    const { store, resolve, events } = setup();
    const gate = deferred<AgentToolResult>();
    const record = store.push(pending("slow", { apply: () => gate.promise }));
    const inFlight = resolve("apply");
    await store.clear("session disposed");
    gate.reject(new Error("interrupted"));
    const result = await inFlight;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Apply failed");
    expect(textOf(result)).toContain("no longer pending");
    expect(store.hasPending).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: "action-discarded",
      record,
      reason: "cleared while applying",
    });
  });

  it("resolves many actions in reverse order of registration", async () => {
    const { store, resolve } = setup();
    const order: string[] = [];
    for (const label of ["one", "two", "three"]) {
      const apply = async () => {
        order.push(label);
        return textResult(label);
      };
      store.push(pending(label, { apply }));
    }
    await resolve("apply");
    await resolve("apply");
    await resolve("apply");
    expect(order).toEqual(["three", "two", "one"]);
  });

  it.each([
    [{ action: "maybe", reason: "x" }],
    [{ action: "apply", reason: "" }],
    [{ action: "apply", reason: "   " }],
    [{ action: "apply" }],
    [null],
  ])("answers invalid arguments with an error and leaves the stack alone %#", async (params) => {
    const { store, tool } = setup();
    store.push(pending("keep"));
    const result = await tool.execute("c", params as never, undefined, fakeContext());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('action must be "apply" or "discard"');
    expect(store.size).toBe(1);
  });
});
