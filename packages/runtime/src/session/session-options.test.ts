import { Type } from "@sinclair/typebox";
import { type AgentToolResult, TooldockError } from "@tooldock/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { textOf } from "../../test/fake-context.js";
import { Session } from "./session.js";
import { resolveSessionOptions, type SessionOptions } from "./session-options.js";

function neverSettling(session: Session): Promise<AgentToolResult> {
  session.register({
    name: "hang",
    label: "Hang",
    description: "never settles",
    parameters: Type.Object({}),
    execute: () => new Promise<AgentToolResult>(() => {}),
  });
  return session.execute({ toolCallId: "t", name: "hang", params: {} });
}

describe("session options", () => {
  afterEach(() => vi.useRealTimers());

  it("fills in the documented defaults", () => {
    const config = resolveSessionOptions({});
    expect(config).toMatchObject({
      toolChoice: "auto",
      pendingPolicy: "block",
      executeTimeoutMs: 600_000,
      maxResultChars: 100_000,
      updateIntervalMs: 50,
    });
    expect(config.exposesHidden("anything")).toBe(false);
  });

  it("treats executeTimeoutMs 0 and Infinity as no deadline", () => {
    expect(resolveSessionOptions({ executeTimeoutMs: 0 }).executeTimeoutMs).toBe(Number.POSITIVE_INFINITY);
    expect(resolveSessionOptions({ executeTimeoutMs: Number.POSITIVE_INFINITY }).executeTimeoutMs).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it("defaults resolveTimeoutMs to executeTimeoutMs, or ten minutes when that has no limit", () => {
    expect(resolveSessionOptions({}).resolveTimeoutMs).toBe(600_000);
    expect(resolveSessionOptions({ executeTimeoutMs: 3_000 }).resolveTimeoutMs).toBe(3_000);
    expect(resolveSessionOptions({ executeTimeoutMs: 0 }).resolveTimeoutMs).toBe(600_000);
    expect(resolveSessionOptions({ executeTimeoutMs: 0, resolveTimeoutMs: 42 }).resolveTimeoutMs).toBe(42);
  });

  it.each([0, -1, 1.5, 2 ** 31, Number.POSITIVE_INFINITY, Number.NaN])(
    "rejects resolveTimeoutMs = %s with E_INVALID_OPTION: callbacks always have a deadline",
    (value) => {
      let thrown: unknown;
      try {
        new Session({ resolveTimeoutMs: value });
      } catch (error) {
        thrown = error;
      }
      expect(TooldockError.isInstance(thrown) && thrown.code).toBe("E_INVALID_OPTION");
      expect((thrown as Error).message).toContain("Session option resolveTimeoutMs must be an integer");
    },
  );

  it.each<[keyof SessionOptions, number]>([
    ["executeTimeoutMs", -1],
    ["executeTimeoutMs", 1.5],
    ["executeTimeoutMs", 2 ** 31],
    ["maxResultChars", 0],
    ["maxResultChars", Number.NaN],
    ["updateIntervalMs", -5],
  ])("rejects %s = %s with E_INVALID_OPTION", (name, value) => {
    let thrown: unknown;
    try {
      new Session({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(TooldockError.isInstance(thrown) && thrown.code).toBe("E_INVALID_OPTION");
    expect((thrown as Error).message).toContain(`Session option ${name} must be an integer`);
  });

  it("times a call out after ten minutes by default", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let answered = false;
    const call = neverSettling(new Session()).then((result) => {
      answered = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(599_999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(textOf(await call)).toMatch(
      /^Tool "hang" timed out after 10 min without finishing and was stopped\./,
    );
  });

  it("sets no timer at all without a deadline", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    void neverSettling(new Session({ executeTimeoutMs: 0 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
