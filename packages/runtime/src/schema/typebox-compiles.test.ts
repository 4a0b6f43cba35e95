import { Kind, Type, TypeGuard } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import fc from "fast-check";
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

  it("throws E_INVALID_SCHEMA for an empty anyOf, which TypeBox's guard passes and its compiler cannot compile", () => {
    const forged = { [Kind]: "Object", type: "object", properties: { x: { [Kind]: "Union", anyOf: [] } } };
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

// typeboxCompiles answers what TypeGuard.IsSchema would from the walk alone. Held to the real
// guard and compiler on generated nodes of every plain kind (and some that are not), each
// field right, wrong or missing: whenever it vouches, TypeBox's guard agrees and its
// compiler compiles.
describe("typeboxCompiles against TypeBox's own guard and compiler", () => {
  const KINDS = [
    "Any",
    "Unknown",
    "Boolean",
    "Null",
    "Integer",
    "Number",
    "String",
    "Literal",
    "Never",
    "Array",
    "Object",
    "Union",
    "Record",
    "Ref",
    "Mystery",
  ];
  const TYPES: Record<string, string> = {
    Boolean: "boolean",
    Null: "null",
    Integer: "integer",
    Number: "number",
    String: "string",
    Array: "array",
    Object: "object",
  };
  const scalar = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom(Number.NaN, 1.5, Number.POSITIVE_INFINITY),
    fc.boolean(),
    fc.constantFrom("x", "", "\\S", "(", "a\u0007", "^[a-z]+$", "date-time"),
    fc.constant({}),
    fc.constant([]),
  );
  const NUMBER_FIELDS = [
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
  ];
  const OTHER_FIELDS = ["pattern", "format", "const", "uniqueItems", "$id", "required", "not"];
  const { node } = fc.letrec<{ node: unknown; child: unknown }>((tie) => ({
    child: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("node")),
    node: fc
      .record({
        kind: fc.constantFrom(...KINDS),
        rightType: fc.boolean(),
        fields: fc.dictionary(fc.constantFrom(...NUMBER_FIELDS, ...OTHER_FIELDS), scalar, { maxKeys: 3 }),
        items: tie("child"),
        contains: fc.option(tie("child"), { nil: undefined }),
        properties: fc.oneof(
          scalar,
          fc.dictionary(fc.constantFrom("a", "b", "c\u0008", "d"), tie("child"), { maxKeys: 3 }),
        ),
        additionalProperties: tie("child"),
        anyOf: fc.oneof(scalar, fc.array(tie("child"), { maxLength: 3 })),
      })
      .map(({ kind, rightType, fields, items, contains, properties, additionalProperties, anyOf }) => {
        const made: Record<string | symbol, unknown> = { [Kind]: kind, ...fields };
        if (rightType && TYPES[kind] !== undefined) made.type = TYPES[kind];
        else if (!rightType) made.type = "string";
        if (kind === "Array") Object.assign(made, { items }, contains === undefined ? {} : { contains });
        if (kind === "Object") Object.assign(made, { properties, additionalProperties });
        if (kind === "Union") made.anyOf = anyOf;
        if (kind === "Literal" && !("const" in fields)) made.const = "a";
        if (kind === "Never" && !("not" in fields)) made.not = {};
        return made;
      }),
  }));

  it("vouches only for what TypeGuard.IsSchema accepts and TypeCompiler.Compile compiles", () => {
    let vouched = 0;
    fc.assert(
      fc.property(node, (schema) => {
        if (typeof schema !== "object" || schema === null || !typeboxCompiles(schema as never)) return;
        vouched++;
        expect(TypeGuard.IsSchema(schema)).toBe(true);
        expect(() => TypeCompiler.Compile(schema as never)).not.toThrow();
      }),
      { numRuns: 3000, seed: 24 },
    );
    // Not a property that holds by vouching for nothing.
    expect(vouched).toBeGreaterThan(100);
  });

  it("refuses, node by node, what the guard refuses", () => {
    const ok = { [Kind]: "String", type: "string" };
    const holey: unknown[] = [ok];
    holey[2] = ok;
    const cases: Record<string, unknown>[] = [
      { [Kind]: "String", type: "string", minLength: "1" },
      { [Kind]: "String", type: "string", pattern: "a\u0007" },
      { [Kind]: "Integer", type: "number" },
      { [Kind]: "Literal", const: null },
      { [Kind]: "Never", not: { a: 1 } },
      { [Kind]: "Array", type: "array", items: {} },
      { [Kind]: "Array", type: "array", items: ok, uniqueItems: "yes" },
      { [Kind]: "Object", type: "object", properties: { "a\u000a": ok } },
      { [Kind]: "Object", type: "object", properties: { a: ok }, additionalProperties: null },
      { [Kind]: "Union", anyOf: [ok, 1] },
      // Found by the property above: the guard takes it, the compiler writes a syntax error.
      { [Kind]: "Union", anyOf: [] },
      // A hole is not a schema: TypeBox's guard skips it, its compiler writes broken code.
      { [Kind]: "Union", anyOf: holey },
    ];
    for (const schema of cases) {
      expect(typeboxCompiles(schema as never)).toBe(false);
      expect(
        typeboxCompiles({ [Kind]: "Object", type: "object", properties: { inner: schema } } as never),
      ).toBe(false);
    }
  });
});
