import { TooldockError, textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import type { PendingActionEvent } from "./pending-action-record.js";
import { PendingActionStore } from "./pending-action-store.js";

function counterIds(): () => string {
  let next = 0;
  return () => `action-${++next}`;
}

function action(label: string, extra: Record<string, unknown> = {}) {
  return { label, apply: async () => textResult(`applied ${label}`), ...extra };
}

describe("PendingActionStore", () => {
  it("returns a record with id, label, default sourceToolName, details and createdAt", () => {
    const store = new PendingActionStore({ now: () => 1234, createId: counterIds() });
    const record = store.push(action("Rename 3 file(s)", { details: { files: 3 } }));
    expect(record).toEqual({
      id: "action-1",
      label: "Rename 3 file(s)",
      sourceToolName: "custom_tool",
      details: { files: 3 },
      createdAt: 1234,
    });
  });

  it("keeps the sourceToolName the producer gives", () => {
    const store = new PendingActionStore();
    expect(store.push(action("x", { sourceToolName: "ast_edit" })).sourceToolName).toBe("ast_edit");
  });

  it("is LIFO: peek and pop see the newest, list is top first", () => {
    const store = new PendingActionStore({ createId: counterIds() });
    expect(store.hasPending).toBe(false);
    expect(store.peek()).toBeUndefined();
    expect(store.pop()).toBeUndefined();
    store.push(action("first"));
    store.push(action("second"));
    store.push(action("third"));
    expect(store.size).toBe(3);
    expect(store.hasPending).toBe(true);
    expect(store.peek()?.label).toBe("third");
    expect(store.size).toBe(3);
    expect(store.list().map((record) => record.label)).toEqual(["third", "second", "first"]);
    expect(store.pop()?.label).toBe("third");
    expect(store.list().map((record) => record.id)).toEqual(["action-2", "action-1"]);
  });

  it("gives each action its own id by default", () => {
    const store = new PendingActionStore();
    const first = store.push(action("a"));
    const second = store.push(action("b"));
    expect(first.id).not.toBe(second.id);
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("pop does not run reject and tells listeners the action was discarded", async () => {
    const store = new PendingActionStore();
    const reject = vi.fn(async () => undefined);
    const events: PendingActionEvent[] = [];
    store.push(action("x", { reject }));
    store.subscribe((event) => events.push(event));
    store.pop();
    expect(reject).not.toHaveBeenCalled();
    expect(events).toEqual([
      expect.objectContaining({ type: "action-discarded", reason: "removed by pop()" }),
    ]);
  });

  it("clear calls each reject with the reason, top first, even when one throws", async () => {
    const store = new PendingActionStore();
    const calls: string[] = [];
    store.push(action("a", { reject: async (reason: string) => void calls.push(`a:${reason}`) }));
    store.push(
      action("b", {
        reject: async () => {
          calls.push("b");
          throw new Error("cleanup broke");
        },
      }),
    );
    store.push(action("c")); // no reject
    const events: PendingActionEvent[] = [];
    store.subscribe((event) => events.push(event));
    await store.clear("session disposed");
    expect(calls).toEqual(["b", "a:session disposed"]);
    expect(store.size).toBe(0);
    expect(events.map((event) => [event.type, event.record.label])).toEqual([
      ["action-discarded", "c"],
      ["action-discarded", "b"],
      ["action-discarded", "a"],
    ]);
    const failed = events[1];
    expect(failed?.type === "action-discarded" && failed.error).toEqual(new Error("cleanup broke"));
    expect(events[0]).not.toHaveProperty("error");
  });

  it("emits action-pending on push and stops after unsubscribe", () => {
    const store = new PendingActionStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const record = store.push(action("x"));
    expect(listener).toHaveBeenCalledWith({ type: "action-pending", record });
    unsubscribe();
    store.push(action("y"));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("isolates a throwing listener and reports it through onListenerError", () => {
    const onListenerError = vi.fn();
    const store = new PendingActionStore({ onListenerError });
    const after = vi.fn();
    store.subscribe(() => {
      throw new Error("listener broke");
    });
    store.subscribe(after);
    const record = store.push(action("x"));
    expect(store.size).toBe(1);
    expect(after).toHaveBeenCalledOnce();
    expect(onListenerError).toHaveBeenCalledWith(new Error("listener broke"), {
      type: "action-pending",
      record,
    });
  });

  it("regression: a throwing onListenerError neither fails push nor skips later listeners", () => {
    const store = new PendingActionStore({
      onListenerError: () => {
        throw new Error("handler broke");
      },
    });
    const after = vi.fn();
    store.subscribe(() => {
      throw new Error("listener broke");
    });
    store.subscribe(after);
    const record = store.push(action("x"));
    expect(record.label).toBe("x");
    expect(store.size).toBe(1);
    expect(after).toHaveBeenCalledOnce();
  });

  it("regression: an async listener that rejects is reported through onListenerError", async () => {
    const onListenerError = vi.fn();
    const store = new PendingActionStore({ onListenerError });
    store.subscribe(async () => {
      throw new Error("async listener broke");
    });
    const record = store.push(action("x"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onListenerError).toHaveBeenCalledWith(new Error("async listener broke"), {
      type: "action-pending",
      record,
    });
  });

  it.each([
    [null, "expected an object, got null"],
    [{ apply: async () => textResult("x") }, "label must be a non-empty string"],
    [{ label: "  ", apply: async () => textResult("x") }, "label must be a non-empty string"],
    [{ label: "x" }, 'apply must be a function (label "x")'],
    [{ label: "x", apply: async () => textResult("x"), reject: 1 }, "reject must be a function"],
    [
      { label: "x", apply: async () => textResult("x"), sourceToolName: 7 },
      "sourceToolName must be a string",
    ],
  ])("rejects an unusable action %#", (value, problem) => {
    const store = new PendingActionStore();
    const attempt = () => store.push(value as never);
    expect(attempt).toThrow(TooldockError);
    expect(attempt).toThrow(problem);
    try {
      attempt();
    } catch (error) {
      expect((error as TooldockError).code).toBe("E_INVALID_PENDING_ACTION");
    }
    expect(store.size).toBe(0);
  });
});
