import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/session/session.js";
import { toAnthropicRequest } from "../../src/steering/anthropic-request.js";

/**
 * Attack: a schema that names a parameter `__proto__` (a JSON Schema read with `JSON.parse`,
 * where it is an own key). Copying the schema for providers assigned `copy["__proto__"]`, which
 * set the copy's prototype instead of a key: the parameter vanished from every provider
 * request, and its sub-schema leaked in as inherited keys of `properties`. Fixed: the copy
 * defines such a key as an own data property.
 */
const schema = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"type":"string"},"count":{"type":"number"}},"required":["__proto__"]}',
);

const protoTool = {
  name: "proto_param",
  label: "Proto parameter",
  description: "Takes a parameter named __proto__.",
  parameters: Type.Unsafe<Record<string, unknown>>(schema),
  execute: async () => textResult("ran"),
};

describe("a parameter named __proto__", () => {
  it("stays an own key of the schema every provider request carries", () => {
    const session = new Session();
    session.register(protoTool);
    const request = JSON.parse(JSON.stringify(toAnthropicRequest(session))) as {
      tools: { name: string; input_schema: { properties: Record<string, unknown> } }[];
    };
    const sent = request.tools.find((tool) => tool.name === "proto_param");
    const properties = sent?.input_schema.properties ?? {};
    expect(Object.keys(properties)).toEqual(["__proto__", "count"]);
    expect(Object.getOwnPropertyDescriptor(properties, "__proto__")?.value).toEqual({ type: "string" });
  });
});
