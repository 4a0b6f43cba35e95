import { Type } from "@sinclair/typebox";
import { type CustomTool, textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { fakeContext } from "../../test/fake-context.js";
import { snapshotTool, toolAccessorWarning, toolOrigin } from "./snapshot-tool.js";

const plain = () => ({
  name: "plain",
  label: "Plain",
  description: "a plain tool",
  parameters: Type.Object({}),
  execute: async () => textResult("ran"),
});

function ok(value: unknown) {
  const snapshot = snapshotTool(value);
  if (!snapshot.ok) throw new Error(snapshot.problems.join("; "));
  return snapshot;
}

describe("snapshotTool", () => {
  it("copies a plain tool into a new frozen record, with no warning", async () => {
    const tool = plain();
    const snapshot = ok(tool);
    expect(snapshot.tool).not.toBe(tool);
    expect(Object.isFrozen(snapshot.tool)).toBe(true);
    expect(snapshot.tool).toMatchObject({ name: "plain", label: "Plain", description: "a plain tool" });
    expect(snapshot.tool.parameters).toBe(tool.parameters);
    expect(toolAccessorWarning(snapshot, "m.ts")).toBeUndefined();
    tool.name = "renamed";
    tool.execute = async () => textResult("replaced");
    expect(snapshot.tool.name).toBe("plain");
    expect(await snapshot.tool.execute("t", {}, undefined, fakeContext())).toEqual(textResult("ran"));
  });

  it("returns a record passed in again as is", () => {
    const { tool } = ok(plain());
    expect(ok(tool).tool).toBe(tool);
  });

  it("reads class methods from the prototype without a warning and calls them on the instance", async () => {
    class Counter {
      name = "counter";
      label = "Counter";
      description = "counts";
      parameters = Type.Object({});
      count = 0;
      async execute() {
        this.count += 1;
        return textResult(String(this.count));
      }
      async onSession() {
        this.count += 10;
      }
    }
    const instance = new Counter();
    const snapshot = ok(instance);
    expect(snapshot.accessors).toEqual([]);
    expect(await snapshot.tool.execute("t", {}, undefined, fakeContext())).toEqual(textResult("1"));
    await snapshot.tool.onSession?.({ reason: "start" }, fakeContext());
    expect(instance.count).toBe(11);
    expect(toolOrigin(snapshot.tool)).toMatchObject({ target: instance, execute: Counter.prototype.execute });
  });

  it("runs an inherited getter once and names it in the warning", () => {
    let reads = 0;
    class Named {
      get name() {
        reads += 1;
        return "named";
      }
      label = "Named";
      description = "d";
      parameters = Type.Object({});
      execute = async () => textResult("x");
    }
    const snapshot = ok(new Named());
    expect(reads).toBe(1);
    expect(snapshot.accessors).toEqual(["name"]);
    expect(toolAccessorWarning(snapshot, "m.ts")?.message).toBe(
      'Tool "named" from m.ts defines "name" through a getter. Each field was read once, when the tool was accepted, and the tool keeps those values: later changes are ignored.',
    );
  });

  it("ignores fields inherited from Object.prototype", () => {
    const proto = Object.prototype as unknown as Record<string, unknown>;
    proto.execute = async () => textResult("polluted");
    try {
      const { execute: _execute, ...rest } = plain();
      const snapshot = snapshotTool(rest);
      expect(snapshot.ok).toBe(false);
      expect(!snapshot.ok && snapshot.problems).toEqual(['"execute" is missing, not a function']);
    } finally {
      delete proto.execute;
    }
  });

  it.each<[string, unknown, string]>([
    ["null", null, "it is null, not an object"],
    ["an array", [plain()], "it is an array, not an object"],
    ["a string", "tool", "it is a string, not an object"],
    ["a wrong label", { ...plain(), label: 3 }, '"label" is a number, not a string'],
    [
      "a throwing getter",
      {
        ...plain(),
        get description(): string {
          throw new Error("boom");
        },
      },
      'reading "description" threw (boom)',
    ],
  ])("refuses %s, never throwing", (_case, value, problem) => {
    const snapshot = snapshotTool(value);
    expect(snapshot.ok).toBe(false);
    expect(!snapshot.ok && snapshot.problems).toContain(problem);
  });

  it("refuses a revoked Proxy without throwing", () => {
    const { proxy, revoke } = Proxy.revocable(plain(), {});
    revoke();
    const snapshot = snapshotTool(proxy);
    expect(snapshot.ok).toBe(false);
    expect(!snapshot.ok && snapshot.problems[0]).toMatch(/^reading "name" threw/);
  });

  it("makes hidden and deferrable booleans", () => {
    const { tool } = ok({ ...plain(), hidden: 1, deferrable: "" } as unknown as CustomTool);
    expect(tool.hidden).toBe(true);
    expect(tool.deferrable).toBe(false);
  });
});
