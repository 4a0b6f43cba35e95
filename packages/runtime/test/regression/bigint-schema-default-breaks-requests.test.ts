import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import { validateTool } from "../../src/session/validate-tool.js";
import { toAnthropicRequest } from "../../src/steering/anthropic-request.js";

/**
 * Attack: a tool whose TypeBox schema holds a value JSON cannot carry (`default: 1n`, or a
 * `toJSON` that throws) was accepted by the loader and `Session.register`; then every
 * provider request the host built with it threw when serialised ("Do not know how to
 * serialize a BigInt"), so one tool broke the whole conversation. Fixed: `asSchema` checks
 * that the JSON Schema can be written as JSON, so `validateTool` refuses such a tool with
 * E_INVALID_SCHEMA at load and at registration.
 */
const bigDefault = {
  name: "big_default",
  label: "Big default",
  description: "A schema with a BigInt default.",
  parameters: Type.Object({ count: Type.Number({ default: 1n as unknown as number }) }),
  execute: async () => textResult("ran"),
};

describe("a schema JSON cannot carry", () => {
  it("is refused at registration, and the session's requests stay serialisable", () => {
    const session = new Session();
    expect(() => session.register(bigDefault)).toThrow(
      /^Tool "big_default" from the host has unusable parameters: The parameters cannot be written as JSON Schema: Do not know how to serialize a BigInt/,
    );
    expect(() => JSON.stringify(toAnthropicRequest(session))).not.toThrow();
  });

  it("is E_INVALID_SCHEMA for the loader's check too (validateTool)", () => {
    const checked = validateTool(bigDefault, { path: "tools/big.ts", compileValidator: true });
    expect(checked.ok).toBe(false);
    expect(checked.diagnostics[0]).toMatchObject({ code: "E_INVALID_SCHEMA", toolName: "big_default" });
  });

  it("is refused for a toJSON in the schema that throws, too", () => {
    const throwing = {
      ...bigDefault,
      name: "throwing_to_json",
      parameters: Type.Object({
        count: Type.Number({
          toJSON() {
            throw new Error("no JSON here");
          },
        }),
      }),
    };
    const checked = validateTool(throwing, { path: "tools/big.ts", compileValidator: true });
    expect(checked.ok ? undefined : checked.diagnostics[0]?.message).toMatch(
      /cannot be written as JSON Schema: no JSON here/,
    );
  });
});
