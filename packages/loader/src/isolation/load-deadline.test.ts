import { afterEach, describe, expect, it, vi } from "vitest";
import { loadDeadline } from "./load-isolated.js";

// The tool host's load deadline ran from its start, while the host was still building the
// packs the tool host evaluates: a large batch on a busy machine went past it and a module was
// blamed ("A module blocks while it loads": CI's validate-isolate-corpus, compile-large-file).
afterEach(() => {
  vi.useRealTimers();
});

describe("the deadline of an isolated load", () => {
  it("does not run while the host builds: it starts when the tool host is handed its load", async () => {
    vi.useFakeTimers();
    let handOver = () => {};
    const init = new Promise<void>((resolve) => {
      handOver = resolve;
    });
    const late = vi.fn();
    loadDeadline(init, 1_000, late);
    await vi.advanceTimersByTimeAsync(5_000); // the host's build, however long
    expect(late).not.toHaveBeenCalled();
    handOver();
    await vi.advanceTimersByTimeAsync(999);
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it("calls nothing once disarmed, before or after the hand-over", async () => {
    vi.useFakeTimers();
    const late = vi.fn();
    loadDeadline(Promise.resolve(), 1_000, late)();
    let handOver = () => {};
    const pending = new Promise<void>((resolve) => {
      handOver = resolve;
    });
    const disarm = loadDeadline(pending, 1_000, late);
    disarm();
    handOver();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(late).not.toHaveBeenCalled();
  });
});
