import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpSessionTable } from "./http-session-table.js";

afterEach(() => {
  vi.useRealTimers();
});

const response = () => new EventEmitter() as unknown as ServerResponse;

describe("HttpSessionTable", () => {
  it("expires a session after the idle time without a connection, telling onIdle once", () => {
    vi.useFakeTimers();
    const idle: string[] = [];
    const table = new HttpSessionTable<string>(1000, (id) => idle.push(id));
    table.add("a", "A");
    vi.advanceTimersByTime(999);
    expect(table.get("a")).toBe("A");
    vi.advanceTimersByTime(1);
    expect(table.get("a")).toBeUndefined();
    expect(idle).toEqual(["a"]);
  });

  it("does not expire while a connection is open; the idle time starts when the last one closes", () => {
    vi.useFakeTimers();
    const idle: string[] = [];
    const table = new HttpSessionTable<string>(1000, (id) => idle.push(id));
    table.add("a", "A");
    const stream = response();
    const call = response();
    table.hold("a", stream);
    table.hold("a", call);
    vi.advanceTimersByTime(5000);
    call.emit("close");
    vi.advanceTimersByTime(5000);
    expect(idle).toEqual([]);
    stream.emit("close");
    vi.advanceTimersByTime(999);
    expect(idle).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(idle).toEqual(["a"]);
  });

  it("delete and deleteAll take sessions out without onIdle", () => {
    vi.useFakeTimers();
    const idle: string[] = [];
    const table = new HttpSessionTable<string>(1000, (id) => idle.push(id));
    table.add("a", "A");
    table.add("b", "B");
    expect(table.delete("a")).toBe("A");
    expect(table.delete("a")).toBeUndefined();
    expect(table.values()).toEqual(["B"]);
    expect(table.deleteAll()).toEqual(["B"]);
    vi.advanceTimersByTime(5000);
    expect(idle).toEqual([]);
    expect(table.size).toBe(0);
  });
});
