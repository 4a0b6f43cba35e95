import { describe, expect, it } from "vitest";
import { createEventBus } from "./event-bus.js";
import { createToolLogger } from "./tool-logger.js";

describe("createEventBus (pi.events / host.events)", () => {
  it("delivers in order, removes by off or by the returned function, and survives a throwing handler", () => {
    const failures: string[] = [];
    const bus = createEventBus((channel, error) => failures.push(`${channel}: ${(error as Error).message}`));
    const seen: string[] = [];
    const first = (data: unknown) => seen.push(`first ${String(data)}`);
    const stop = bus.on("job:done", first);
    bus.on("job:done", () => {
      throw new Error("broken handler");
    });
    bus.on("job:done", (data) => seen.push(`last ${String(data)}`));
    bus.on("other", () => seen.push("other"));
    bus.emit("job:done", 1);
    expect(seen).toEqual(["first 1", "last 1"]);
    expect(failures).toEqual(["job:done: broken handler"]);
    stop();
    stop(); // idempotent
    bus.emit("job:done", 2);
    expect(seen).toEqual(["first 1", "last 1", "last 2"]);
    bus.off("other", () => {}); // not registered: nothing happens
    bus.emit("nobody-listens");
    expect(seen).toHaveLength(3);
  });

  it("an emit never throws, even when the reporter does", () => {
    const bus = createEventBus(() => {
      throw new Error("reporter broken too");
    });
    bus.on("x", () => {
      throw new Error("handler broken");
    });
    expect(() => bus.emit("x")).not.toThrow();
  });
});

describe("createToolLogger (pi.logger)", () => {
  const capture = () => {
    const lines: string[] = [];
    const logger = createToolLogger({
      debug: (message) => lines.push(`debug ${message}`),
      info: (message) => lines.push(`info ${message}`),
      warn: () => {},
      error: () => {},
    });
    return { lines, logger };
  };

  it("passes messages on and times with a stop function, logging once", () => {
    const { lines, logger } = capture();
    logger.info("hello");
    const stop = logger.time("step");
    const ms = stop();
    expect(stop()).toBe(ms);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(lines[0]).toBe("info hello");
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^debug step: \d+(\.\d+)? ms$/);
  });

  it("times a function, also when it throws or returns a promise", async () => {
    const { lines, logger } = capture();
    expect(logger.time("sync", () => 42)).toBe(42);
    expect(() =>
      logger.time("throws", () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(await logger.time("async", async () => "done")).toBe("done");
    await Promise.resolve();
    expect(lines.map((line) => line.split(":")[0])).toEqual(["debug sync", "debug throws", "debug async"]);
  });
});
