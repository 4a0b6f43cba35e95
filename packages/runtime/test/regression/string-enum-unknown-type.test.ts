import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { asSchema } from "../../src/schema/as-schema.js";

/**
 * Attack (issue 14, item 3): pi's `StringEnum` is `Type.Unsafe({ type: "string", enum })`.
 * TypeBox's compiler cannot compile an `Unsafe` kind, so such a tool passed `list` and
 * `validate`, then every call failed with "The TypeBox schema cannot be compiled: Unknown
 * type", with a hint to use `Type.Union` of literals (which Gemini rejects). Fixed: the
 * schema is validated by its JSON Schema (Ajv), compiled once per tool.
 */
const stringEnum = (values: string[]) => Type.Unsafe<string>({ type: "string", enum: values });

describe("a Type.Unsafe string enum (pi's StringEnum)", () => {
  const schema = asSchema(
    Type.Object({
      action: stringEnum(["list", "add"]),
      text: Type.Optional(Type.String()),
      count: Type.Unsafe<number>({ type: "integer", minimum: 1 }),
    }),
  );

  it("validates good arguments and passes them through unchanged", () => {
    const value = { action: "add", text: "milk", count: 2 };
    expect(schema.validate(value)).toEqual({ success: true, value });
  });

  it("reports each bad argument at its path, with the allowed values", () => {
    const result = schema.validate({ action: "drop", text: 3 });
    expect(result.success).toBe(false);
    expect(result.success === false && result.issues).toEqual([
      { path: "/count", message: "Expected required property" },
      { path: "/action", message: 'Expected one of "list", "add"' },
      { path: "/text", message: "Must be string" },
    ]);
  });

  it("prepares at once, and its JSON Schema stays the enum (no anyOf)", () => {
    expect(() => schema.prepare?.()).not.toThrow();
    expect(schema.jsonSchema.properties).toMatchObject({ action: { type: "string", enum: ["list", "add"] } });
  });

  it("a schema neither TypeBox nor Ajv can compile is E_INVALID_SCHEMA at prepare, not per call", () => {
    const broken = asSchema(Type.Object({ x: Type.Unsafe({ $ref: "#/definitions/missing" }) }));
    let thrown: unknown;
    try {
      broken.prepare?.();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "E_INVALID_SCHEMA" });
    expect(String((thrown as Error).message)).not.toContain("Type.Union");
    expect(String((thrown as Error).message)).toContain("StringEnum");
  });

  it("plain TypeBox schemas still use TypeBox's compiler and messages", () => {
    const plain = asSchema(Type.Object({ n: Type.Number() }));
    expect(plain.validate({ n: "1" })).toEqual({
      success: false,
      issues: [{ path: "/n", message: "Expected number" }],
    });
  });
});
