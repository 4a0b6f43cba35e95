import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";

/**
 * Attack: a tool whose synchronous part replaces `globalThis.setTimeout` with a function that
 * throws (a broken polyfill), puts it back a moment later, and never settles. Since
 * aa67a90 a call's deadline timer is armed in a `process.nextTick` after the synchronous run,
 * with the global `setTimeout` (so a host's fake timers drive it): that throw escaped the
 * tick as an uncaught exception, which ends a host process, and the call never timed out.
 * Fixed: arming that fails falls back to the `setTimeout` the runtime captured when it loaded,
 * so the deadline still stops the call and nothing is thrown at the host.
 */
const original = globalThis.setTimeout;

afterEach(() => {
  globalThis.setTimeout = original;
});

describe("a tool that breaks setTimeout in its synchronous part", () => {
  it("still times out, and nothing is thrown at the host", { timeout: 10_000 }, async () => {
    const session = new Session({ executeTimeoutMs: 100 });
    session.register({
      name: "breaks_timers",
      label: "Breaks timers",
      description: "Replaces setTimeout with one that throws, then never settles.",
      parameters: Type.Object({}),
      execute: () => {
        globalThis.setTimeout = (() => {
          throw new Error("no timers here");
        }) as unknown as typeof setTimeout;
        setImmediate(() => {
          globalThis.setTimeout = original;
        });
        return new Promise(() => {});
      },
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener("uncaughtException", onUncaught);
    try {
      const result = await session.execute({ toolCallId: "call-1", name: "breaks_timers", params: {} });
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      expect(result.isError).toBe(true);
      expect(text).toContain('Tool "breaks_timers" timed out');
      expect(uncaught).toEqual([]);
    } finally {
      process.removeListener("uncaughtException", onUncaught);
      await session.dispose();
    }
  });
});
