// Attack (on a host's shutdown): a session with 1,000 pending actions whose rejects each take
// a while. dispose() awaited each reject one after another, each up to its own deadline:
// 151 s for 1,000. Fix: every reject starts at once and they settle side by side, so
// dispose() takes one deadline however many are pending.
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import type { SessionEvent } from "../../src/session/session-events.js";

const COUNT = 1_000;

describe("regression: dispose() with a thousand pending actions", () => {
  it("runs every reject side by side: each waits until all have started, and none times out", async () => {
    // A reject that ends only once every reject has started cannot finish one after another.
    const session = new Session({ resolveTimeoutMs: 120_000 });
    let started = 0;
    let allStarted: () => void = () => {};
    const everyoneIn = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    for (let index = 0; index < COUNT; index += 1) {
      session.pending.push({
        label: `action ${index}`,
        apply: async () => ({ content: [] }),
        reject: async () => {
          started += 1;
          if (started === COUNT) allStarted();
          await everyoneIn;
          return undefined;
        },
      });
    }
    const discarded: Array<Extract<SessionEvent, { type: "action-discarded" }>> = [];
    session.subscribe((event) => {
      if (event.type === "action-discarded") discarded.push(event);
    });
    await session.dispose();
    expect(started).toBe(COUNT);
    expect(discarded).toHaveLength(COUNT);
    expect(discarded.filter((event) => event.timedOut === true)).toEqual([]);
    expect(session.pending.size).toBe(0);
  }, 60_000);
});
