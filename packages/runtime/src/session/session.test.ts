import { Type } from "@sinclair/typebox";
import { type CustomTool, TooldockError, textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { echoTool, stagingTool } from "../../test/tools.js";
import { PendingActionStore } from "../pending/pending-action-store.js";
import { Session } from "./session.js";
import type { SessionEvent } from "./session-events.js";

function errorOf(run: () => void): TooldockError {
  try {
    run();
  } catch (error) {
    if (TooldockError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe("Session registry", () => {
  it("registers resolve automatically, hidden, and lists tools in order", () => {
    const session = new Session();
    session.register(echoTool("a"));
    session.register(echoTool("b", { hidden: true }));
    expect(session.tools().map((tool) => tool.name)).toEqual(["resolve", "a", "b"]);
    expect(session.get("resolve")?.hidden).toBe(true);
    expect(session.get("b")?.name).toBe("b");
    expect(session.get("missing")).toBeUndefined();
    expect(session.activeTools().map((tool) => tool.name)).toEqual(["a"]);
  });

  it("rejects a taken name, naming both origins", () => {
    const session = new Session();
    session.register(echoTool("grep"), "tools/first.ts");
    const error = errorOf(() => session.register(echoTool("grep"), "tools/second.ts"));
    expect(error.code).toBe("E_NAME_CONFLICT");
    expect(error.message).toContain("tools/first.ts");
    expect(error.message).toContain("tools/second.ts");
    expect(error.message).toContain('"grep"');
  });

  it("reserves resolve for the built-in", () => {
    const error = errorOf(() => new Session().register(echoTool("resolve"), "tools/mine.ts"));
    expect(error.code).toBe("E_NAME_CONFLICT");
    expect(error.message).toContain("@tooldock/runtime (built-in resolve)");
  });

  it.each(["1bad", "has space", "", "x".repeat(65)])("rejects the invalid name %j", (name) => {
    const error = errorOf(() => new Session().register(echoTool(name)));
    expect(error.code).toBe("E_NAME_INVALID");
    expect(error.message).toContain("/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/");
  });

  it("rejects an object that is not a tool", () => {
    const error = errorOf(() =>
      new Session().register({ name: "x", label: "X" } as unknown as CustomTool, "m.ts"),
    );
    expect(error.code).toBe("E_INVALID_TOOL");
    expect(error.message).toBe(
      'Tool "x" from m.ts is not a valid tool: "description" is missing, not a string; "parameters" is missing, not a schema; ' +
        '"execute" is missing, not a function. Give it string `name`, `label` and `description`, a `parameters` schema ' +
        "(TypeBox or zod) and an `execute` function; `defineTool` checks this as you type.",
    );
  });

  it("rejects an unusable schema, naming the tool", () => {
    const tool = echoTool("dates", { parameters: z.object({ when: z.date() }) });
    const error = errorOf(() => new Session().register(tool, "m.ts"));
    expect(error.code).toBe("E_INVALID_SCHEMA");
    expect(error.message).toMatch(
      /^Tool "dates" from m\.ts has unusable parameters: .*Date cannot be represented/,
    );
  });
});

describe("Session steering", () => {
  it("returns the configured choice (default auto) and forces resolve while pending", async () => {
    const session = new Session({ toolChoice: "required" });
    expect(new Session().toolChoice()).toBe("auto");
    expect(session.toolChoice()).toBe("required");
    session.register(stagingTool("stage"));
    await session.execute({ toolCallId: "1", name: "stage", params: { label: "Do it" } });
    expect(session.toolChoice()).toEqual({ type: "tool", name: "resolve" });
    expect(session.activeTools().map((tool) => tool.name)).toEqual(["resolve", "stage"]);
    await session.execute({ toolCallId: "2", name: "resolve", params: { action: "discard", reason: "no" } });
    expect(session.toolChoice()).toBe("required");
    expect(session.activeTools().map((tool) => tool.name)).toEqual(["stage"]);
  });
});

describe("Session events", () => {
  it("emits a reminder on every push, from the session ctx or the store directly", async () => {
    const session = new Session();
    session.register(stagingTool("stage"));
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    await session.execute({ toolCallId: "1", name: "stage", params: { label: "Rename 2 file(s)" } });
    session.pending.push({ label: "Delete cache", apply: async () => textResult("ok") });
    const reminders = events.filter((event) => event.type === "reminder");
    expect(reminders).toHaveLength(2);
    const [first, second] = reminders;
    expect(first?.type === "reminder" && first.text).toBe(
      "Nothing has changed yet. Call the `resolve` tool to apply or discard Rename 2 file(s) " +
        '(action "apply" or "discard", with a reason) before doing anything else.',
    );
    expect(first?.type === "reminder" && first.text).toContain("`resolve`");
    expect(first?.type === "reminder" && first.text).toContain("apply or discard Rename 2 file(s)");
    expect(second?.type === "reminder" && second.record.label).toBe("Delete cache");
  });

  it("emits tool-call-start and tool-call-end around every call and forwards pending events", async () => {
    const session = new Session();
    session.register(stagingTool("stage"));
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    const result = await session.execute({ toolCallId: "c1", name: "stage", params: { label: "L" } });
    await session.execute({ toolCallId: "c2", name: "nope", params: {} });
    expect(events.map((event) => event.type)).toEqual([
      "tool-call-start",
      "action-pending",
      "tool-call-end",
      "reminder",
      "tool-call-start",
      "tool-call-end",
    ]);
    expect(events[0]).toEqual({
      type: "tool-call-start",
      toolCallId: "c1",
      name: "stage",
      params: { label: "L" },
    });
    expect(events[2]).toEqual({ type: "tool-call-end", toolCallId: "c1", name: "stage", result });
    expect(events[3]).toMatchObject({ type: "reminder", toolCallId: "c1", record: { label: "L" } });
  });

  it("keeps going when a listener throws and reports it", async () => {
    const onListenerError = vi.fn();
    const session = new Session({ onListenerError });
    session.register(echoTool());
    session.subscribe(() => {
      throw new Error("bad listener");
    });
    const result = await session.execute({ toolCallId: "1", name: "echo", params: { text: "hi" } });
    expect(result).toEqual(textResult("hi"));
    expect(onListenerError).toHaveBeenCalledWith(
      new Error("bad listener"),
      expect.objectContaining({ type: "tool-call-start" }),
    );
  });
});

describe("Session lifecycle", () => {
  function hookTool(name: string, log: string[], fail?: "start" | "shutdown"): CustomTool {
    return echoTool(name, {
      async onSession(event, ctx) {
        log.push(`${name}:${event.reason}:${ctx.sessionId}`);
        if (event.reason === fail) throw fail === "start" ? "plain string fault" : null;
      },
    });
  }

  it("sends start and shutdown to every tool, in order, once", async () => {
    const log: string[] = [];
    const session = new Session({ sessionId: "s1" });
    session.register(hookTool("a", log));
    session.register(hookTool("b", log));
    await session.start();
    await session.start();
    await session.dispose();
    await session.dispose();
    expect(log).toEqual(["a:start:s1", "b:start:s1", "a:shutdown:s1", "b:shutdown:s1"]);
  });

  it("sends start to a tool registered after start", async () => {
    const log: string[] = [];
    const session = new Session({ sessionId: "s1" });
    await session.start();
    session.register(hookTool("late", log));
    await session.dispose();
    expect(log).toEqual(["late:start:s1", "late:shutdown:s1"]);
  });

  it("never crashes on a hook fault: it emits tool-hook-failed and goes on", async () => {
    const log: string[] = [];
    const session = new Session({ sessionId: "s" });
    session.register(hookTool("a", log, "start"));
    session.register(hookTool("b", log, "shutdown"));
    const events: SessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    await session.start();
    await session.dispose();
    expect(log).toEqual(["a:start:s", "b:start:s", "a:shutdown:s", "b:shutdown:s"]);
    expect(events).toEqual([
      {
        type: "tool-hook-failed",
        toolName: "a",
        event: { reason: "start", entries: [], sessionFile: null, previousSessionFile: null },
        error: "plain string fault",
      },
      {
        type: "tool-hook-failed",
        toolName: "b",
        event: { reason: "shutdown", entries: [], sessionFile: null, previousSessionFile: null },
        error: null,
      },
    ]);
  });

  it("dispose clears pending actions with reason session disposed before shutdown", async () => {
    const log: string[] = [];
    const pending = new PendingActionStore();
    const session = new Session({ pending, sessionId: "s" });
    session.register(hookTool("a", log));
    expect(session.pending).toBe(pending);
    pending.push({
      label: "x",
      apply: async () => textResult("no"),
      reject: async (reason) => {
        log.push(`reject:${reason}`);
        return undefined;
      },
    });
    await session.dispose();
    expect(log).toEqual(["reject:session disposed", "a:shutdown:s"]);
    expect(pending.hasPending).toBe(false);
  });

  it("passes the session id, cwd and pending state to tools", async () => {
    const session = new Session({ sessionId: "abc", cwd: "/work" });
    const seen: unknown[] = [];
    session.register({
      name: "probe",
      label: "Probe",
      description: "Reports its context",
      parameters: Type.Object({}),
      async execute(_id, _params, _onUpdate, ctx) {
        seen.push([ctx.sessionId, ctx.cwd, ctx.hasPendingActions()]);
        return textResult("ok");
      },
    });
    expect(session.id).toBe("abc");
    expect(session.cwd).toBe("/work");
    await session.execute({ toolCallId: "1", name: "probe", params: {} });
    expect(seen).toEqual([["abc", "/work", false]]);
  });
});
