import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import { type TSchema, Type } from "@sinclair/typebox";
import { toStrictJsonSchema } from "openai/lib/transform";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asSchema } from "../schema/as-schema.js";
import { toProviderSchema } from "./provider-schema.js";

type Schema = Record<string, unknown>;

/** A tool's parameters as the adapters send them: what `asSchema` makes of zod and TypeBox. */
const jsonOf = (parameters: z.ZodType | TSchema | Schema) => asSchema(parameters).jsonSchema as Schema;
const raw = (properties: Schema, required = Object.keys(properties)): Schema => ({
  type: "object",
  properties,
  required,
});
const deep = (levels: number): Schema =>
  levels === 0 ? { type: "string" } : raw({ next: deep(levels - 1) });

/** `required` lists compared as sets: the openai SDK orders them by `properties`. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [
      key,
      key === "required" && Array.isArray(entry) ? [...entry].sort() : normalized(entry),
    ]),
  );
}

/** Every keyword of a schema and of the schemas inside it. */
function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywords(item, found);
  else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      found.add(key);
      if (key === "properties" || key === "$defs" || key === "definitions")
        for (const inner of Object.values(value as Schema)) keywords(inner, found);
      else if (key !== "enum" && key !== "const" && key !== "default" && key !== "required")
        keywords(value, found);
    }
  }
  return found;
}

/** Gemini's documented JSON Schema subset for `parametersJsonSchema` (anything else it ignores). */
const GEMINI_SUBSET = new Set([
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "$schema",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
]);

const TreeNode = z.object({
  name: z.string(),
  get children() {
    return z.array(TreeNode);
  },
});

/** Each construct, and whether OpenAI's and Anthropic's strict modes can take it once rewritten. */
const constructs: Array<{
  name: string;
  schema: Schema;
  openai: boolean;
  anthropic: boolean;
  /** A rule or limit OpenAI's API enforces and its SDK does not check. */
  apiLimit?: true;
}> = [
  {
    name: "zod discriminatedUnion (oneOf with a discriminator)",
    schema: jsonOf(
      z.object({
        shape: z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("circle"), radius: z.number() }),
          z.object({ kind: z.literal("square"), side: z.number() }),
        ]),
      }),
    ),
    openai: true,
    anthropic: true,
  },
  {
    name: "zod xor of different types (oneOf)",
    schema: jsonOf(z.object({ id: z.xor([z.string(), z.number()]) })),
    openai: true,
    anthropic: true,
  },
  {
    name: "oneOf whose branches overlap",
    schema: raw({ id: { oneOf: [{ type: "string" }, { type: "string", minLength: 3 }] } }),
    openai: false,
    anthropic: true,
  },
  {
    name: "zod union (anyOf)",
    schema: jsonOf(z.object({ id: z.union([z.string(), z.number()]) })),
    openai: true,
    anthropic: true,
  },
  {
    name: "zod tuple (prefixItems)",
    schema: jsonOf(z.object({ point: z.tuple([z.number(), z.number()]) })),
    openai: false,
    anthropic: false,
  },
  {
    name: "TypeBox tuple (items array)",
    schema: jsonOf(Type.Object({ point: Type.Tuple([Type.Number(), Type.Number()]) })),
    openai: false,
    anthropic: false,
  },
  {
    name: "recursive $ref (zod getter)",
    schema: jsonOf(z.object({ tree: TreeNode })),
    openai: true,
    anthropic: false,
  },
  {
    name: "zod record (additionalProperties schema)",
    schema: jsonOf(z.object({ counts: z.record(z.string(), z.number()) })),
    openai: false,
    anthropic: false,
  },
  {
    name: "TypeBox record (patternProperties)",
    schema: jsonOf(Type.Object({ counts: Type.Record(Type.String(), Type.Number()) })),
    openai: false,
    anthropic: false,
  },
  {
    name: "zod optional, not nullable",
    schema: jsonOf(z.object({ query: z.string(), limit: z.number().optional() })),
    openai: false,
    anthropic: true,
  },
  {
    name: "zod nullish (optional and nullable)",
    schema: jsonOf(z.object({ query: z.string(), limit: z.number().nullish() })),
    openai: true,
    anthropic: true,
  },
  {
    name: "TypeBox Optional",
    schema: jsonOf(Type.Object({ path: Type.String(), line: Type.Optional(Type.Integer()) })),
    openai: false,
    anthropic: true,
  },
  {
    name: "zod default (optional on input)",
    schema: jsonOf(z.object({ unit: z.enum(["c", "f"]).default("c") })),
    openai: false,
    anthropic: true,
  },
  {
    name: "string formats (zod url, email, iso datetime, uuid)",
    schema: jsonOf(z.object({ url: z.url(), email: z.email(), at: z.iso.datetime(), id: z.uuid() })),
    openai: true,
    anthropic: true,
  },
  {
    name: "TypeBox Intersect of objects (allOf)",
    schema: jsonOf(
      Type.Object({
        both: Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]),
      }),
    ),
    openai: true,
    anthropic: true,
  },
  {
    name: "allOf that does not merge (a shared property)",
    schema: raw({
      both: {
        allOf: [raw({ a: { type: "string" } }), raw({ a: { type: "string", minLength: 2 } })],
      },
    }),
    openai: false,
    anthropic: false,
  },
  {
    name: "objects without additionalProperties",
    schema: raw({ nested: raw({ x: { type: "number" } }) }),
    openai: true,
    anthropic: true,
  },
  {
    name: "number, string and array constraints",
    schema: jsonOf(
      Type.Object({
        n: Type.Integer({ minimum: 1, maximum: 9, multipleOf: 3 }),
        s: Type.String({ minLength: 2, maxLength: 5, pattern: "^[a-z]+$" }),
        list: Type.Array(Type.String(), { minItems: 2, maxItems: 4 }),
      }),
    ),
    openai: true,
    anthropic: true,
  },
  {
    name: "uniqueItems and not",
    schema: raw({
      tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      x: { type: "string", not: { const: "" } },
    }),
    openai: false,
    anthropic: true,
  },
  {
    name: "literals (const and enum)",
    schema: jsonOf(z.object({ mode: z.literal("fast"), level: z.enum(["low", "high"]) })),
    openai: true,
    anthropic: true,
  },
  {
    name: "an array without items",
    schema: raw({ list: { type: "array" } }),
    openai: false,
    anthropic: true,
  },
  {
    name: "zod unknown (no type)",
    schema: jsonOf(z.object({ key: z.string(), value: z.unknown() })),
    openai: false,
    anthropic: false,
    apiLimit: true,
  },
  {
    name: "nested deeper than ten levels",
    schema: deep(12),
    openai: false,
    anthropic: true,
    apiLimit: true,
  },
];

describe("toProviderSchema", () => {
  describe.each(constructs)("$name", ({ schema, openai, anthropic, apiLimit }) => {
    it(`openai: strict ${openai}, agreeing with the openai SDK's own normaliser`, () => {
      const result = toProviderSchema(schema, "openai");
      expect(result.strict, result.problems.join("\n")).toBe(openai);
      if (openai) {
        // What we send is already in strict form: the SDK's normaliser accepts it and changes nothing.
        expect(normalized(toStrictJsonSchema(structuredClone(result.parameters)))).toEqual(
          normalized(result.parameters),
        );
      } else {
        if (!apiLimit) expect(() => toStrictJsonSchema(structuredClone(schema))).toThrow();
        expect(result.problems.length).toBeGreaterThan(0);
      }
    });

    it(`anthropic: strict ${anthropic}, in the form Anthropic's SDK gives strict schemas`, () => {
      const result = toProviderSchema(schema, "anthropic");
      expect(result.strict, result.problems.join("\n")).toBe(anthropic);
      if (anthropic) expect(transformJSONSchema(result.parameters)).toEqual(result.parameters);
    });

    it("gemini: only keywords of its documented subset", () => {
      const { parameters } = toProviderSchema(schema, "gemini");
      expect([...keywords(parameters)].filter((keyword) => !GEMINI_SUBSET.has(keyword))).toEqual([]);
    });
  });

  it("rewrites a discriminated union into anyOf for OpenAI and says so", () => {
    const { parameters, changes } = toProviderSchema(constructs[0]?.schema as Schema, "openai");
    expect(parameters.properties).toMatchObject({
      shape: { anyOf: [{ type: "object" }, { type: "object" }] },
    });
    expect(changes).toContain("shape: `oneOf` sent as `anyOf` (its branches exclude each other)");
  });

  it("names each construct that keeps strict mode off", () => {
    const problems = (index: number) =>
      toProviderSchema(constructs[index]?.schema as Schema, "openai").problems;
    expect(problems(4)).toEqual(["point: a tuple has no strict form"]);
    expect(problems(7)).toEqual([
      "counts: an open object (a record, its keys not known in advance) has no strict form",
    ]);
    expect(problems(9)).toEqual([
      "(root): optional property `limit` does not accept null (strict mode requires every property)",
    ]);
    expect(toProviderSchema(constructs[6]?.schema as Schema, "anthropic").problems).toEqual([
      "#/$defs/__schema0: a recursive schema has no strict form",
    ]);
  });

  it("moves what a provider would reject or ignore into the description", () => {
    const schema = constructs[17]?.schema as Schema;
    const anthropic = toProviderSchema(schema, "anthropic").parameters.properties as Record<string, Schema>;
    expect(anthropic.n).toEqual({ type: "integer", description: "{minimum: 1, maximum: 9, multipleOf: 3}" });
    const openai = toProviderSchema(constructs[13]?.schema as Schema, "openai").parameters
      .properties as Record<string, Schema>;
    expect(openai.url).toMatchObject({ type: "string", description: '{format: "uri"}' });
    expect(openai.email).toMatchObject({ format: "email" });
  });

  it("gives Gemini const as a one-value enum and tuples as prefixItems", () => {
    const literal = toProviderSchema(constructs[19]?.schema as Schema, "gemini").parameters
      .properties as Record<string, Schema>;
    expect(literal.mode).toEqual({ type: "string", enum: ["fast"] });
    const tuple = toProviderSchema(constructs[5]?.schema as Schema, "gemini").parameters.properties as Record<
      string,
      Schema
    >;
    expect(tuple.point).toMatchObject({ prefixItems: [{ type: "number" }, { type: "number" }] });
  });

  it("returns the tool's own schema object when nothing changes, and the same result again", () => {
    const schema = { type: "object", properties: {}, required: [], additionalProperties: false };
    const result = toProviderSchema(schema, "openai");
    expect(result.parameters).toBe(schema);
    expect(toProviderSchema(schema, "openai")).toBe(result);
  });
});
