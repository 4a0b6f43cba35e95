import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "./session.js";
import { validateTool, validateToolName } from "./validate-tool.js";

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  label: name,
  description: `The ${name} tool.`,
  parameters: Type.Object({}),
  execute: async () => textResult("ran"),
  ...extra,
});

function refusal(value: unknown, options: Parameters<typeof validateTool>[1] = { path: "m.ts" }) {
  const checked = validateTool(value, options);
  if (checked.ok) throw new Error("expected a refusal");
  return checked.diagnostics[0];
}

describe("validateTool", () => {
  it("returns the frozen record, its schema and no diagnostics for a plain tool", () => {
    const original = tool("plain");
    const checked = validateTool(original, { path: "m.ts" });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.tool).not.toBe(original);
    expect(Object.isFrozen(checked.tool)).toBe(true);
    expect(checked.schema.jsonSchema).toMatchObject({ type: "object" });
    expect(checked.diagnostics).toEqual([]);
  });

  it("refuses a value that is not a tool, naming the entry, with a hint", () => {
    expect(refusal({ label: "x" }, { path: "/t/a.ts", resolvedPath: "/real/a.ts", entry: 2 })).toEqual({
      code: "E_INVALID_TOOL",
      severity: "error",
      message:
        'Entry 2 from /t/a.ts is not a valid tool: "name" is missing, not a string; "description" is missing, not a string; ' +
        '"parameters" is missing, not a schema; "execute" is missing, not a function.',
      path: "/t/a.ts",
      resolvedPath: "/real/a.ts",
      hint: expect.stringContaining("`defineTool` checks this"),
    });
    expect(refusal(42).message).toBe(
      "The value from m.ts is not a valid tool: it is a number, not an object.",
    );
  });

  it("says to use a plain object when a read throws", () => {
    const hostile = {
      ...tool("x"),
      get description(): string {
        throw new Error("no reads");
      },
    };
    const diagnostic = refusal(hostile);
    expect(diagnostic).toMatchObject({ code: "E_INVALID_TOOL", toolName: "x" });
    expect(diagnostic?.message).toContain('reading "description" threw (no reads)');
    expect(diagnostic?.hint).toContain("no throwing getters or proxies");
  });

  it.each([
    ["1bad", "it must match /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/"],
    ["resolve", '"resolve" is reserved for the built-in tool that applies or discards pending actions'],
    ["read", '"read" is reserved for a built-in tool of this host'],
  ])("refuses the name %j with E_NAME_INVALID", (name, problem) => {
    const diagnostic = refusal(tool(name), { path: "m.ts", reserved: new Set(["resolve", "read"]) });
    expect(diagnostic).toMatchObject({ code: "E_NAME_INVALID", toolName: name });
    expect(diagnostic?.message).toContain(`Tool name "${name}" from m.ts cannot be used: ${problem}`);
  });

  it("refuses parameters that are not an object schema, and compiles the validator only when asked", () => {
    expect(refusal(tool("s", { parameters: Type.String() }))).toMatchObject({
      code: "E_INVALID_SCHEMA",
      message: expect.stringMatching(/^Tool "s" from m\.ts has unusable parameters: .*object schema/),
    });
    expect(refusal(tool("d", { parameters: z.object({ when: z.date() }) })).code).toBe("E_INVALID_SCHEMA");
    const unvalidatable = tool("odd", {
      parameters: Type.Object({ mode: Type.Unsafe<string>({ $ref: "#/definitions/missing" }) }),
    });
    expect(validateTool(unvalidatable, { path: "m.ts" }).ok).toBe(true);
    expect(refusal(unvalidatable, { path: "m.ts", compileValidator: true }).message).toContain(
      "cannot be validated",
    );
  });

  it("checks the name is free last, so an invalid tool never contests a name", () => {
    const holderOf = (name: string) => (name === "taken" ? "other.ts" : name === "mine" ? "m.ts" : undefined);
    expect(refusal(tool("taken"), { path: "m.ts", holderOf })).toMatchObject({
      code: "E_NAME_CONFLICT",
      message:
        'Tool name "taken" from m.ts is already taken by other.ts; the first to claim a name keeps it.',
    });
    expect(refusal(tool("mine"), { path: "m.ts", holderOf }).message).toBe(
      'Tool name "mine" appears twice in m.ts; the first one is kept.',
    );
    expect(refusal(tool("taken", { parameters: {} }), { path: "m.ts", holderOf }).code).toBe(
      "E_INVALID_SCHEMA",
    );
  });

  it("gives W_TOOL_ACCESSOR and W_LEGACY_EXECUTE_ORDER as warnings of an accepted tool", () => {
    const checked = validateTool(
      {
        ...tool("old", {
          execute: async (_id: string, _params: unknown, signal: AbortSignal) => textResult(String(signal)),
        }),
        get label() {
          return "Old";
        },
      },
      { path: "m.ts" },
    );
    expect(checked.ok).toBe(true);
    expect(checked.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity])).toEqual([
      ["W_TOOL_ACCESSOR", "warning"],
      ["W_LEGACY_EXECUTE_ORDER", "warning"],
    ]);
  });

  it("words a session's refusal as the loader does: the message, then the hint", () => {
    const session = new Session();
    session.register(tool("grep"), "tools/first.ts");
    const expected = refusal(tool("grep"), { path: "tools/second.ts", holderOf: () => "tools/first.ts" });
    expect(() => session.register(tool("grep"), "tools/second.ts")).toThrow(
      `${expected?.message} ${expected?.hint}`,
    );
  });
});

describe("validateToolName", () => {
  it("is the name steps alone: pattern, reserved, then the holder", () => {
    const options = { path: "/t/b.ts", reserved: new Set(["resolve"]), holderOf: () => "/t/a.ts" };
    expect(validateToolName("resolve", options)?.code).toBe("E_NAME_INVALID");
    expect(validateToolName("x y", options)?.code).toBe("E_NAME_INVALID");
    expect(validateToolName("fine", options)?.code).toBe("E_NAME_CONFLICT");
    expect(validateToolName("fine", { path: "/t/b.ts" })).toBeUndefined();
  });
});
