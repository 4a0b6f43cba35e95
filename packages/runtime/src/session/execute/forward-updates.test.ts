import { type AgentToolResult, textResult } from "@tooldock/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { textOf } from "../../../test/fake-context.js";
import { forwardUpdates } from "./forward-updates.js";
import type { ToolCallFault } from "./tool-call-fault.js";

function setup(intervalMs: number, target?: (partial: AgentToolResult) => unknown) {
  const delivered: string[] = [];
  const faults: Array<{ fault: ToolCallFault; error: unknown }> = [];
  const forwarder = forwardUpdates({
    target: target ?? ((partial) => delivered.push(textOf(partial))),
    intervalMs,
    prepare: (partial) => partial as AgentToolResult,
    report: (fault, error) => faults.push({ fault, error }),
  });
  const send = (text: string) => forwarder.onUpdate?.(textResult(text));
  return { delivered, faults, forwarder, send };
}

describe("forwardUpdates", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => vi.useRealTimers());

  it("gives the tool no onUpdate when the host has none", () => {
    const forwarder = forwardUpdates({
      target: undefined,
      intervalMs: 50,
      prepare: () => undefined,
      report: () => {},
    });
    expect(forwarder.onUpdate).toBeUndefined();
  });

  it("delivers the first update at once and the newest of each interval after it", () => {
    const { delivered, send } = setup(50);
    send("1");
    send("2");
    send("3");
    expect(delivered).toEqual(["1"]);
    vi.advanceTimersByTime(50);
    expect(delivered).toEqual(["1", "3"]);
    vi.advanceTimersByTime(50); // nothing waiting: the interval lapses
    send("4");
    expect(delivered).toEqual(["1", "3", "4"]);
  });

  it("delivers every update when the interval is 0", () => {
    const { delivered, send } = setup(0);
    for (const text of ["a", "b", "c"]) send(text);
    expect(delivered).toEqual(["a", "b", "c"]);
  });

  it("drops the waiting update and every later one once the call ended, leaving no timer", () => {
    const { delivered, forwarder, send } = setup(50);
    send("1");
    send("2");
    forwarder.end();
    send("3");
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(500);
    expect(delivered).toEqual(["1"]);
  });

  it("with flush (the tool returned), delivers the waiting update first, then nothing more", () => {
    const { delivered, forwarder, send } = setup(50);
    send("1");
    send("2");
    send("3");
    forwarder.end(true);
    expect(delivered).toEqual(["1", "3"]);
    send("4");
    forwarder.end(true);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(500);
    expect(delivered).toEqual(["1", "3"]);
  });

  it("reports a host onUpdate that throws and keeps delivering", () => {
    let calls = 0;
    const { faults, send } = setup(0, () => {
      calls++;
      throw new Error("render failed");
    });
    send("1");
    send("2");
    expect(calls).toBe(2);
    expect(faults.map((entry) => entry.fault)).toEqual(["update-listener-failed", "update-listener-failed"]);
  });

  it("drops what prepare refuses", () => {
    const delivered: unknown[] = [];
    const forwarder = forwardUpdates({
      target: (partial) => delivered.push(partial),
      intervalMs: 0,
      prepare: () => undefined,
      report: () => {},
    });
    forwarder.onUpdate?.(textResult("x"));
    expect(delivered).toEqual([]);
  });
});
