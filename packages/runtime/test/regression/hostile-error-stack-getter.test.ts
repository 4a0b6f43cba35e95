// Attack: a tool throws an error built to hurt whoever reads it: a `stack` getter that throws,
// one that answers differently on each read (a short stack when checked, a huge one when
// used), a Proxy whose every trap throws, a revoked Proxy, a multi-megabyte stack. The session
// reads the thrown value into the `tool-call-end` event's `error`; it must never crash the
// host, read each field once, and keep the event small and JSON-safe.
import { Type } from "@sinclair/typebox";
import type { CustomTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { MAX_ERROR_STACK_CHARS } from "../../src/session/execute/tool-call-error.js";
import { Session } from "../../src/session/session.js";
import type { SessionEvent } from "../../src/session/session-events.js";
import { textOf } from "../fake-context.js";

const ORIGIN = "/tools/hostile.ts";

function throwing(value: () => unknown): CustomTool {
  return {
    name: "hostile",
    label: "Hostile",
    description: "throws a hostile value",
    parameters: Type.Object({}),
    execute: () => {
      throw value();
    },
  };
}

async function endOf(tool: CustomTool) {
  const session = new Session({ executeTimeoutMs: 5_000 });
  session.register(tool, ORIGIN);
  const events: SessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  const result = await session.execute({ toolCallId: "h1", name: "hostile", params: {} });
  await session.dispose();
  const end = events.find((event) => event.type === "tool-call-end");
  if (end?.type !== "tool-call-end") throw new Error("no tool-call-end");
  return { result, error: end.error };
}

describe("regression: hostile error stack getter", () => {
  it("leaves out a stack whose getter throws, keeping the message", async () => {
    const { result, error } = await endOf(
      throwing(() => {
        const error = new Error("real cause");
        Object.defineProperty(error, "stack", {
          get() {
            throw new Error("stack getter exploded");
          },
        });
        return error;
      }),
    );
    expect(error).toEqual({ message: "real cause", name: "Error" });
    expect(textOf(result)).toMatch(/^Tool "hostile" failed: real cause\. /);
  });

  it("reads a stack that changes between reads exactly once, and parses what it read", async () => {
    let reads = 0;
    const { error } = await endOf(
      throwing(() => {
        const error = new Error("shifty");
        Object.defineProperty(error, "stack", {
          get() {
            reads += 1;
            return reads === 1
              ? `Error: shifty\n    at execute (${ORIGIN}:7:11)`
              : `Error: shifty\n${"    at elsewhere (/x.js:1:1)\n".repeat(100_000)}`;
          },
        });
        return error;
      }),
    );
    expect(reads).toBe(1);
    expect(error?.stack).toBe(`Error: shifty\n    at execute (${ORIGIN}:7:11)`);
    expect(error?.location).toEqual({ file: ORIGIN, line: 7, column: 11 });
  });

  it("survives a Proxy whose every trap throws, and a revoked Proxy", async () => {
    const trap = () => {
      throw new Error("trap");
    };
    const traps = {
      get: trap,
      getPrototypeOf: trap,
      has: trap,
      ownKeys: trap,
      getOwnPropertyDescriptor: trap,
    };
    const hostile = await endOf(throwing(() => new Proxy(new Error("hidden"), traps)));
    // Even its tag cannot be read: `an unreadable value`, and no name, code or stack.
    expect(hostile.error).toEqual({ message: "an unreadable value" });
    expect(textOf(hostile.result)).toMatch(/^Tool "hostile" failed: an unreadable /);

    const revocable = Proxy.revocable(new Error("gone"), {});
    revocable.revoke();
    const revoked = await endOf(throwing(() => revocable.proxy));
    expect(revoked.error?.message).toMatch(/^an unreadable /);
    expect(revoked.error?.stack).toBeUndefined();
  });

  it("caps a multi-megabyte stack at a line, still finding the tool's frame", async () => {
    const frames = "    at deep (/lib/deep.js:1:1)\n".repeat(200_000);
    const { error } = await endOf(
      throwing(() => {
        const error = new Error("deep");
        error.stack = `Error: deep\n    at execute (${ORIGIN}:3:5)\n${frames}`;
        return error;
      }),
    );
    const stack = error?.stack ?? "";
    expect(stack.length).toBeLessThan(MAX_ERROR_STACK_CHARS + 100);
    expect(stack).toMatch(/\n {4}… \[truncated \d+ characters\]$/);
    expect(error?.location).toEqual({ file: ORIGIN, line: 3, column: 5 });
    expect(JSON.parse(JSON.stringify(error))).toEqual(error);
  });

  it("leaves out a stack, name or code that is not a string", async () => {
    const { error } = await endOf(
      throwing(() => ({ message: "odd fields", stack: { frames: [] }, name: 7n, code: Symbol("c") })),
    );
    expect(error).toEqual({ message: "odd fields" });
  });
});
