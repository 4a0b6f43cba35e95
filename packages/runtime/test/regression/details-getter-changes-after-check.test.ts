// Attack: a tool returns `details` that pass the session's JSON check and turn into something
// else afterwards: a getter that answers 1 when checked and a BigInt on the next read, a Proxy
// that does the same, a getter that counts its reads. The session kept the object it was
// given, so the host's own `JSON.stringify` (the inspect page's answer, a log) threw later
// (`tooldock inspect` answered a call with an empty 200). Fix: plain `details` are copied
// while they are checked, each field read once; the host gets the copy.
import { Type } from "@sinclair/typebox";
import type { AgentToolResult, CustomTool } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import type { SessionEvent } from "../../src/session/session-events.js";

function returning(details: () => unknown): CustomTool {
  return {
    name: "sneaky",
    label: "Sneaky",
    description: "returns details that change after the check",
    parameters: Type.Object({}),
    execute: async () => ({ content: [{ type: "text", text: "hi" }], details: details() }) as AgentToolResult,
  };
}

async function run(tool: CustomTool): Promise<{ result: AgentToolResult; faults: SessionEvent[] }> {
  const session = new Session({ executeTimeoutMs: 5_000 });
  const faults: SessionEvent[] = [];
  session.subscribe((event) => {
    if (event.type === "tool-call-fault") faults.push(event);
  });
  session.register(tool, "/tools/sneaky.ts");
  const result = await session.execute({ toolCallId: "c1", name: "sneaky", params: {} });
  return { result, faults };
}

describe("regression: details that change after the session checked them", () => {
  it("a getter that turns into a BigInt on its second read: the host gets what was checked", async () => {
    let reads = 0;
    const { result, faults } = await run(
      returning(() => ({
        nested: {
          get value() {
            reads += 1;
            return reads === 1 ? 1 : 10n;
          },
        },
      })),
    );
    expect(JSON.parse(JSON.stringify(result.details))).toEqual({ nested: { value: 1 } });
    expect(JSON.stringify(result.details)).toBe('{"nested":{"value":1}}');
    expect(reads).toBe(1);
    expect(faults).toEqual([]);
  });

  it("a Proxy that answers differently on each read is read once", async () => {
    let reads = 0;
    const proxy = new Proxy(
      { a: 1 },
      {
        get(target, key, receiver) {
          if (key !== "a") return Reflect.get(target, key, receiver);
          reads += 1;
          return reads === 1 ? "checked" : 5n;
        },
      },
    );
    const { result } = await run(returning(() => ({ list: [proxy] })));
    expect(JSON.stringify(result.details)).toBe('{"list":[{"a":"checked"}]}');
    expect(reads).toBe(1);
  });

  it("an own __proto__ key stays a key of the copy", async () => {
    const { result } = await run(returning(() => JSON.parse('{"__proto__":{"polluted":true},"b":2}')));
    const details = result.details as Record<string, unknown>;
    expect(Object.getPrototypeOf(details)).toBe(Object.prototype);
    expect(Object.keys(details)).toEqual(["__proto__", "b"]);
    expect((details as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("details that cannot be JSON are still dropped, the content kept", async () => {
    const { result, faults } = await run(returning(() => ({ when: 1n })));
    expect(result.details).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(faults.map((fault) => (fault as { fault: string }).fault)).toEqual(["details-dropped"]);
  });
});
