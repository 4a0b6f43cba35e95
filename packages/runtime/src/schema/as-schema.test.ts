import { Kind, Type } from "@sinclair/typebox";
import { TooldockError } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { asSchema } from "./as-schema.js";
import { TOOL_NAME_PATTERN } from "./tool-name.js";
import { formatSchemaIssue } from "./tool-schema.js";

function invalidSchemaMessage(parameters: unknown): string {
  try {
    asSchema(parameters);
  } catch (error) {
    expect(TooldockError.isInstance(error)).toBe(true);
    expect((error as TooldockError).code).toBe("E_INVALID_SCHEMA");
    return (error as Error).message;
  }
  throw new Error("asSchema did not throw");
}

describe("asSchema with TypeBox", () => {
  const parameters = Type.Object({ files: Type.Array(Type.String()), limit: Type.Optional(Type.Number()) });

  it("gives plain JSON Schema without TypeBox's symbol keys", () => {
    const schema = asSchema(parameters);
    expect(schema.kind).toBe("typebox");
    expect(schema.jsonSchema).toEqual({
      type: "object",
      required: ["files"],
      properties: { files: { type: "array", items: { type: "string" } }, limit: { type: "number" } },
    });
    expect(Object.getOwnPropertySymbols(schema.jsonSchema)).toEqual([]);
    expect(
      Object.getOwnPropertySymbols((schema.jsonSchema.properties as Record<string, object>).limit),
    ).toEqual([]);
    expect(Object.getOwnPropertySymbols(parameters).length).toBeGreaterThan(0); // the original is untouched
  });

  it("validates and names each failing path", () => {
    const schema = asSchema(parameters);
    expect(schema.validate({ files: ["a"] })).toEqual({ success: true, value: { files: ["a"] } });
    const result = schema.validate({ files: ["a", 1, 2] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues.map(formatSchemaIssue)).toEqual([
      "/files/1: Expected string",
      "/files/2: Expected string",
    ]);
  });

  it("reports a missing property and a non-object root", () => {
    const schema = asSchema(parameters);
    const missing = schema.validate({});
    expect(!missing.success && missing.issues.map(formatSchemaIssue)).toContain(
      "/files: Expected required property",
    );
    const root = schema.validate("files");
    expect(!root.success && root.issues.map(formatSchemaIssue)).toEqual(["/: Expected object"]);
  });

  it("returns the same schema object for the same parameters (compiled once)", () => {
    expect(asSchema(parameters)).toBe(asSchema(parameters));
  });

  it("rejects types a model cannot send as JSON", () => {
    const message = invalidSchemaMessage(Type.Object({ when: Type.Date() }));
    expect(message).toContain("TypeBox Date (schema path /properties/when)");
    // The path of a deeper one names every key on the way, outermost first.
    const deep = invalidSchemaMessage(
      Type.Object({ ok: Type.String(), list: Type.Array(Type.Object({ at: Type.Optional(Type.Date()) })) }),
    );
    expect(deep).toContain("TypeBox Date (schema path /properties/list/items/properties/at)");
    expect(asSchema(Type.Object({ at: Type.String() })).jsonSchema).toEqual({
      type: "object",
      properties: { at: { type: "string" } },
      required: ["at"],
    });
  });

  // The checks above are made in one walk of the schema; these pin what a walk of each gave.
  it("names a kind with no JSON form first, also when something later in the schema cannot be read", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const withCycle = Type.Object({ when: Type.Date(), later: Type.Unknown({ default: cyclic }) });
    expect(invalidSchemaMessage(withCycle)).toContain("TypeBox Date (schema path /properties/when)");
    // A kind on an array (inside a value) counts too.
    const onArray = Type.Object({ a: Type.Number({ default: Object.assign([1], { [Kind]: "Date" }) }) });
    expect(invalidSchemaMessage(onArray)).toContain("TypeBox Date (schema path /properties/a/default)");
  });

  it("refuses a value nested too deep for JSON.stringify, as an unusable schema", () => {
    let deep: unknown = 1;
    for (let depth = 0; depth < 20_000; depth++) deep = { a: deep };
    const message = invalidSchemaMessage(Type.Object({ a: Type.Unknown({ default: deep }) }));
    expect(message).toMatch(/Maximum call stack size exceeded/);
  });

  it("validates a schema TypeCompiler cannot compile (Type.Unsafe) by its JSON Schema", () => {
    const schema = asSchema(Type.Object({ mode: Type.Unsafe<string>({ type: "string", enum: ["a"] }) }));
    expect(schema.validate({ mode: "a" })).toEqual({ success: true, value: { mode: "a" } });
    expect(schema.validate({ mode: "b" })).toEqual({
      success: false,
      issues: [{ path: "/mode", message: 'Expected one of "a"' }],
    });
  });

  it("reports at prepare a schema that neither TypeCompiler nor Ajv can compile", () => {
    const schema = asSchema(Type.Object({ mode: Type.Unsafe<string>({ type: 3 }) }));
    expect(() => schema.prepare?.()).toThrow(
      /cannot be validated: TypeBox's compiler cannot compile it: Unknown type, and a JSON Schema validator cannot compile it either/,
    );
  });
});

describe("asSchema with zod v4", () => {
  const parameters = z.object({ files: z.array(z.string()), limit: z.number().default(10) });

  it("converts to JSON Schema of the model's input, without $schema", () => {
    const schema = asSchema(parameters);
    expect(schema.kind).toBe("zod");
    expect(schema.jsonSchema).toEqual({
      type: "object",
      properties: {
        files: { type: "array", items: { type: "string" } },
        limit: { type: "number", default: 10 },
      },
      required: ["files"],
    });
  });

  it("returns zod's parsed output, defaults applied", () => {
    expect(asSchema(parameters).validate({ files: [] })).toEqual({
      success: true,
      value: { files: [], limit: 10 },
    });
  });

  it("names each failing path as a JSON Pointer", () => {
    const result = asSchema(parameters).validate({ files: ["a", 1], limit: "x" });
    expect(!result.success && result.issues.map(formatSchemaIssue)).toEqual([
      "/files/1: Invalid input: expected string, received number",
      "/limit: Invalid input: expected number, received string",
    ]);
  });

  it("escapes ~ and / in keys", () => {
    const result = asSchema(z.object({ "a/b~c": z.string() })).validate({});
    expect(!result.success && result.issues[0]?.path).toBe("/a~1b~0c");
  });

  it("accepts transforms, describing their input", () => {
    const schema = asSchema(z.object({ count: z.string().transform((text) => text.length) }));
    expect(schema.jsonSchema.properties).toEqual({ count: { type: "string" } });
    expect(schema.validate({ count: "abc" })).toEqual({ success: true, value: { count: 3 } });
  });

  it("accepts zod mini schemas", () => {
    const schema = asSchema(zm.object({ name: zm.string() }));
    expect(schema.validate({ name: "x" })).toEqual({ success: true, value: { name: "x" } });
  });

  it.each([
    ["z.date()", z.object({ when: z.date() }), "Date cannot be represented in JSON Schema"],
    ["z.bigint()", z.object({ size: z.bigint() }), "BigInt cannot be represented in JSON Schema"],
  ])("rejects %s with a clear message", (_name, schema, cause) => {
    const message = invalidSchemaMessage(schema);
    expect(message).toContain("cannot be converted to JSON Schema");
    expect(message).toContain(cause);
  });
});

describe("asSchema rejects", () => {
  it.each([
    [
      "a plain JSON Schema",
      { type: "object", properties: {} },
      "not a TypeBox or zod v4 schema (got object)",
    ],
    ["null", null, "(got null)"],
    ["a string", "object", "(got string)"],
    ["an array", [], "(got an array)"],
  ])("%s", (_name, value, text) => {
    expect(invalidSchemaMessage(value)).toContain(text);
  });

  it("a zod v3 schema", () => {
    const v3Like = { _def: { typeName: "ZodObject" }, safeParse: () => ({ success: true }) };
    expect(invalidSchemaMessage(v3Like)).toContain("zod v3 schema; Tooldock takes zod v4");
  });

  it.each([
    ["TypeBox", Type.String(), 'got type "string"', "Type.Object({ ... })"],
    ["zod", z.array(z.string()), 'got type "array"', "z.object({ ... })"],
    ["zod union", z.union([z.object({}), z.string()]), "got no single type", "z.object({ ... })"],
  ])("a %s schema whose top level is not an object", (_name, value, got, fix) => {
    const message = invalidSchemaMessage(value);
    expect(message).toContain("must be an object schema at the top level");
    expect(message).toContain(got);
    expect(message).toContain(fix);
  });
});

describe("TOOL_NAME_PATTERN", () => {
  it.each(["a", "_x", "read_file", "ast-edit", "A1", "a".repeat(64)])("accepts %s", (name) => {
    expect(TOOL_NAME_PATTERN.test(name)).toBe(true);
  });
  it.each(["", "1abc", "-a", "has space", "dot.name", "a".repeat(65), "ünï"])("rejects %j", (name) => {
    expect(TOOL_NAME_PATTERN.test(name)).toBe(false);
  });
});
