import { Kind, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { describe, expect, it, vi } from "vitest";
import { asSchema } from "./as-schema.js";
import { typeboxCompiles } from "./typebox-schema.js";

describe("typeboxCompiles", () => {
  it("vouches for the plain kinds tools use", () => {
    const schema = Type.Object({
      files: Type.Array(Type.String({ minLength: 1, pattern: "\\S" }), { maxItems: 10 }),
      mode: Type.Optional(Type.Union([Type.Literal("a"), Type.Literal(2), Type.Literal(true)])),
      count: Type.Integer({ default: 1 }),
      ratio: Type.Number(),
      flag: Type.Boolean(),
      nothing: Type.Null(),
      any: Type.Any(),
      nested: Type.Object({ deep: Type.Unknown() }, { additionalProperties: false }),
    });
    expect(typeboxCompiles(schema)).toBe(true);
  });

  it("leaves to the compiler what it cannot be sure of", () => {
    expect(typeboxCompiles(Type.Object({ mode: Type.Unsafe<string>({ type: "string", enum: ["a"] }) }))).toBe(
      false,
    );
    expect(typeboxCompiles(Type.Object({ map: Type.Record(Type.String(), Type.Number()) }))).toBe(false);
    const node = Type.Object({ a: Type.String() }, { $id: "Node" });
    expect(typeboxCompiles(Type.Object({ ref: Type.Ref(node) }))).toBe(false);
    expect(typeboxCompiles(Type.Object({ text: Type.String({ pattern: "(" }) }))).toBe(false);
    // A pattern that could backtrack goes to Ajv and RE2, which may refuse it: compiled at load.
    expect(typeboxCompiles(Type.Object({ text: Type.String({ pattern: "^[a-z]+$" }) }))).toBe(false);
  });

  it("refuses a hand-built node TypeBox's own guard refuses", () => {
    const forged = {
      [Kind]: "Object",
      type: "object",
      properties: { a: { [Kind]: "String", minLength: "x" } },
    };
    expect(typeboxCompiles(forged as never)).toBe(false);
  });
});

// The load-time guarantee (docs/contract.md §5): prepare() throws for every schema nothing
// can validate, also now that plain schemas are compiled on their first call.
describe("prepare() with compilation left for the first call", () => {
  it("throws E_INVALID_SCHEMA for an invalid pattern, which TypeBox and Ajv both refuse", () => {
    const schema = asSchema(Type.Object({ text: Type.String({ pattern: "(" }) }));
    expect(() => schema.prepare?.()).toThrow(expect.objectContaining({ code: "E_INVALID_SCHEMA" }));
  });

  it("throws E_INVALID_SCHEMA for a forged node that neither can compile", () => {
    const forged = {
      [Kind]: "Object",
      type: "object",
      properties: { a: { [Kind]: "String", type: "string", minLength: "x" } },
    };
    const schema = asSchema(forged);
    expect(() => schema.prepare?.()).toThrow(expect.objectContaining({ code: "E_INVALID_SCHEMA" }));
  });

  it("validates a plain schema on its first call after a prepare that compiled nothing", () => {
    const compile = vi.spyOn(TypeCompiler, "Compile");
    try {
      const schema = asSchema(Type.Object({ n: Type.Integer() }));
      schema.prepare?.();
      expect(compile).not.toHaveBeenCalled();
      expect(schema.validate({ n: 1 })).toEqual({ success: true, value: { n: 1 } });
      expect(schema.validate({ n: 1.5 }).success).toBe(false);
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });
});
