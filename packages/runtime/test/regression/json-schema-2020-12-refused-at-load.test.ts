import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { asSchema } from "../../src/schema/as-schema.js";

/**
 * Failure (issue 27, found by the MCP conformance suite's json-schema-2020-12 scenario): a
 * tool whose parameters say `"$schema": "https://json-schema.org/draft/2020-12/schema"` (the
 * dialect MCP defaults to) was refused at load with E_INVALID_SCHEMA: the JSON Schema
 * validator knew draft-07 only and had no such meta-schema. Now such a schema is validated by
 * Ajv's 2020-12 class, with that dialect's rules (`prefixItems`, `items` after it, `$defs`).
 */
const point = {
  type: "array",
  prefixItems: [{ type: "number" }, { type: "number" }],
  items: false,
};

describe("parameters in JSON Schema 2020-12", () => {
  const schema = asSchema(
    Type.Object(
      {
        name: Type.Optional(Type.String()),
        address: Type.Optional(Type.Unsafe<{ city?: string }>({ $ref: "#/$defs/address" })),
        at: Type.Optional(Type.Unsafe<[number, number]>(point)),
      },
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $defs: {
          address: { type: "object", properties: { city: { type: "string" } }, additionalProperties: false },
        },
        additionalProperties: false,
      },
    ),
  );

  it("load, and keep their $schema and $defs for the client", () => {
    expect(() => schema.prepare?.()).not.toThrow();
    expect(schema.jsonSchema).toMatchObject({ $defs: { address: { type: "object" } } });
  });

  it("validate by the 2020-12 rules: a tuple of prefixItems with no more items, a $ref into $defs", () => {
    expect(schema.validate({ name: "a", address: { city: "Oslo" }, at: [1, 2] })).toMatchObject({
      success: true,
    });
    expect(schema.validate({ at: [1, 2, 3] })).toMatchObject({ success: false });
    expect(schema.validate({ address: { city: 3 } })).toMatchObject({ success: false });
    expect(schema.validate({ extra: true })).toMatchObject({ success: false });
  });
});
