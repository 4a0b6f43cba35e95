import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asSchema } from "../../src/schema/as-schema.js";
import { toProviderSchema } from "../../src/steering/provider-schema.js";

/**
 * Failure (bug hunt, h8): of the limits OpenAI documents for strict mode ("Supported
 * schemas": at most 5,000 object properties in all, 10 levels of nesting, 1,000 enum values
 * in all, 120,000 characters of property names, definition names, enum and const values, and
 * 15,000 characters for one string enum of more than 250 values), only the nesting was
 * checked: a zod enum of 1,200 time zones went with `strict: true`, and OpenAI refused the
 * request. Fixed: a schema past any of them goes with `strict: false`, the limit named.
 */
const names = (count: number, length = 1, prefix = "v") =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`.padEnd(length, "_"));
const objectOf = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
});
const openai = (schema: Record<string, unknown>) => toProviderSchema(schema, "openai");

describe("OpenAI strict mode past its documented size limits", () => {
  it("more than 1,000 enum values in all", () => {
    const tz = names(1200, 1, "zone_");
    const result = openai(asSchema(z.object({ tz: z.enum(tz) })).jsonSchema);
    expect(result.strict).toBe(false);
    expect(result.problems).toEqual(["(root): 1200 enum values in all (strict mode takes at most 1000)"]);
    const split = objectOf({
      a: { type: "string", enum: names(600) },
      b: { type: "string", enum: names(600) },
    });
    expect(openai(split).strict).toBe(false);
  });

  it("more than 5,000 object properties in all", () => {
    const wide = objectOf(Object.fromEntries(names(5001).map((name) => [name, { type: "number" }])));
    expect(openai(wide).problems).toEqual([
      "(root): 5001 object properties in all (strict mode takes at most 5000)",
    ]);
  });

  it("more than 120,000 characters of names, enum and const values", () => {
    const long = objectOf(Object.fromEntries(names(121, 1000).map((name) => [name, { type: "number" }])));
    expect(openai(long).problems).toEqual([
      "(root): 121000 characters of property names, definition names, enum and const values (strict mode takes at most 120000)",
    ]);
  });

  it("a string enum of more than 250 values and 15,000 characters", () => {
    const result = openai(objectOf({ city: { type: "string", enum: names(300, 60) } }));
    expect(result.problems).toEqual([
      "city: an enum of 300 strings, 18000 characters (strict mode takes at most 15000 past 250 values)",
    ]);
  });

  it("still strict at the limits", () => {
    const at = objectOf({
      a: { type: "string", enum: names(250, 100) },
      b: { type: "string", enum: names(750) },
    });
    expect(openai(at).problems).toEqual([]);
  });
});
