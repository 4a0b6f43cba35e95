import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it, vi } from "vitest";
import { validateTool } from "../../src/session/validate-tool.js";

/**
 * Attack: the CLI's bundle without `ajv.cjs` beside it (a partial copy, a packager that drops
 * `.cjs` files), and a tool whose schema TypeBox's compiler cannot compile, so Ajv is needed.
 * Since Ajv is loaded lazily (361a935), the `require` failure surfaced as the schema's own
 * fault: `has unusable parameters: Cannot find module './ajv.cjs'`, which tells the tool's
 * author to rewrite a valid schema. Fixed: the message says Tooldock could not load its copy
 * of Ajv, that the installation is incomplete, and what to do.
 */
vi.mock("../../src/schema/load-ajv.js", () => ({
  loadAjv: () => {
    throw Object.assign(new Error("Cannot find module './ajv.cjs'"), { code: "MODULE_NOT_FOUND" });
  },
}));

const enumTool = {
  name: "pick_color",
  label: "Pick a colour",
  description: "Picks a colour.",
  parameters: Type.Object({ color: Type.Unsafe<string>({ type: "string", enum: ["rot", "grün"] }) }),
  execute: async () => textResult("picked"),
};

describe("Ajv missing where Tooldock loads it from", () => {
  it("is reported as an incomplete installation, not as the tool's schema being wrong", () => {
    const checked = validateTool(enumTool, { path: "tools/pick-color.ts", compileValidator: true });
    expect(checked.ok).toBe(false);
    const message = checked.ok ? "" : (checked.diagnostics[0]?.message ?? "");
    expect(checked.ok ? undefined : checked.diagnostics[0]?.code).toBe("E_INVALID_SCHEMA");
    expect(message).toContain("could not load its copy of Ajv (Cannot find module './ajv.cjs')");
    expect(message).toContain("installation is incomplete: reinstall it");
  });
});
