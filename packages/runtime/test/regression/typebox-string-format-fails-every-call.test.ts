import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { validateTool } from "../../src/session/validate-tool.js";

/**
 * Failure (real tools, no malice): a TypeBox schema with string formats (`email`, `uri`,
 * `date-time`, `uuid`) loaded and listed, then every call failed, valid arguments included:
 * TypeBox checks only the formats registered in its `FormatRegistry`, and nobody had
 * registered any. Fixed: a schema with a `format` is checked by Ajv with ajv-formats' formats;
 * a format nobody knows is a `W_UNKNOWN_FORMAT` warning at load (and accepts any value), never
 * a failure of every call.
 */
const contact = {
  name: "contact",
  label: "Contact",
  description: "Records a contact.",
  parameters: Type.Object({
    email: Type.String({ format: "email" }),
    site: Type.Optional(Type.String({ format: "uri" })),
    seen: Type.Optional(Type.String({ format: "date-time" })),
    id: Type.Optional(Type.String({ format: "uuid" })),
  }),
  execute: async () => textResult("recorded"),
};

async function call(params: unknown) {
  const session = new Session();
  session.register(contact);
  const result = await session.execute({ toolCallId: "c1", name: "contact", params });
  return {
    isError: result.isError === true,
    text: result.content.map((block) => (block as { text?: string }).text).join(""),
  };
}

describe("TypeBox string formats", () => {
  it("accept valid arguments", async () => {
    expect(
      await call({
        email: "ada@example.org",
        site: "https://example.org/a?b=c",
        seen: "2026-12-05T08:00:00Z",
        id: "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
      }),
    ).toEqual({ isError: false, text: "recorded" });
  });

  it("refuse invalid ones, naming the field", async () => {
    for (const [field, value] of [
      ["email", "not an address"],
      ["site", "not a uri"],
      ["seen", "yesterday"],
      ["id", "123"],
    ] as const) {
      const result = await call({ email: "ada@example.org", [field]: value });
      expect(result.isError).toBe(true);
      expect(result.text).toContain(`/${field}: Must match format`);
    }
  });

  it("a format nobody checks is a W_UNKNOWN_FORMAT warning at load, and any value passes", async () => {
    const tool = {
      ...contact,
      name: "open_path",
      parameters: Type.Object({ path: Type.String({ format: "file-path" }) }),
    };
    const checked = validateTool(tool, { path: "tools/open.ts", compileValidator: true });
    expect(checked.ok).toBe(true);
    expect(checked.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_UNKNOWN_FORMAT"]);
    expect(checked.diagnostics[0]?.message).toContain('"file-path"');
    const session = new Session();
    session.register(tool);
    const result = await session.execute({
      toolCallId: "c1",
      name: "open_path",
      params: { path: "a/b.txt" },
    });
    expect(result.isError).not.toBe(true);
  });
});
