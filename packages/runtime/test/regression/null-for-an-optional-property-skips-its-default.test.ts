import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "../../src/session/session.js";

/**
 * Failure (bug hunt, h7): a model sends `null` for a property it has no value for (strict
 * modes make every property required, and models do it unasked). For a property optional in
 * the tool's own schema that does not accept `null` (zod `.optional()` or `.default(10)`,
 * TypeBox `Type.Optional`), the call failed validation ("expected number, received null")
 * instead of the property being absent and its default applying. Fixed: before validation,
 * such a `null` is removed, at any depth; where the schema accepts `null` (`.nullable()`), the
 * tool gets `null`, as its author wrote.
 */
describe("null for an optional property", () => {
  const session = new Session();
  const seen: unknown[] = [];
  const register = (name: string, parameters: z.ZodType | ReturnType<typeof Type.Object>) =>
    session.register({
      name,
      label: name,
      description: name,
      parameters,
      execute: async (_id, params) => {
        seen.push(params);
        return textResult("ok");
      },
    });
  register(
    "search",
    z.object({
      q: z.string(),
      limit: z.number().int().default(10),
      page: z.number().optional(),
      filter: z.object({ lang: z.string().default("en") }).optional(),
      cursor: z.string().nullable().optional(),
    }),
  );
  register("typebox", Type.Object({ q: Type.String(), limit: Type.Optional(Type.Integer({ default: 10 })) }));

  const call = async (name: string, params: Record<string, unknown>) => {
    seen.length = 0;
    const result = await session.execute({ toolCallId: "1", name, params });
    return { result, params: seen[0] };
  };

  it("is removed where the schema does not accept null, so the default applies", async () => {
    const { result, params } = await call("search", {
      q: "x",
      limit: null,
      page: null,
      filter: { lang: null },
      cursor: null,
    });
    expect(result.isError).not.toBe(true);
    expect(params).toEqual({ q: "x", limit: 10, filter: { lang: "en" }, cursor: null });
  });

  it("is removed for a TypeBox optional property", async () => {
    const { result, params } = await call("typebox", { q: "x", limit: null });
    expect(result.isError).not.toBe(true);
    expect(params).not.toHaveProperty("limit", null);
  });

  it("stays an error for a required property", async () => {
    const { result } = await call("search", { q: null });
    expect(result.isError).toBe(true);
  });
});
