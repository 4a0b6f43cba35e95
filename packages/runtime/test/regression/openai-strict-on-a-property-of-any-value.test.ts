import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "../../src/session/session.js";
import { toOpenAIResponsesRequest } from "../../src/steering/openai-responses-request.js";
import { toProviderSchema } from "../../src/steering/provider-schema.js";

/**
 * Failure (bug hunt, set_config): a property of any value (zod `z.unknown()`, TypeBox
 * `Type.Any()` or `Type.Unknown()`, a raw `{}`) has no `type`, which OpenAI's strict mode
 * requires of every schema ("schema must have a 'type' key"): the Responses adapter sent
 * such a tool with `strict: true`, and the request failed. An optional one was even made
 * required, `{}` being read as accepting null. Fixed: a schema without `type` is a strict
 * problem, and such a property stays optional.
 */
describe("OpenAI strict mode and a property of any value", () => {
  const session = new Session();
  const tools = {
    zod_unknown: z.object({ key: z.string(), value: z.unknown().describe("JSON value") }),
    typebox_any: Type.Object({ data: Type.Any() }),
    typebox_unknown: Type.Object({ key: Type.String(), value: Type.Unknown({ description: "New value" }) }),
    typebox_unsafe: Type.Object({ value: Type.Unsafe({}) }),
  };
  for (const [name, parameters] of Object.entries(tools)) {
    session.register({
      name,
      label: name,
      description: name,
      parameters,
      execute: async () => textResult("ok"),
    });
  }

  it("sends each such tool without strict", () => {
    expect(toOpenAIResponsesRequest(session).tools.map((tool) => [tool.name, tool.strict])).toEqual([
      ["zod_unknown", false],
      ["typebox_any", false],
      ["typebox_unknown", false],
      ["typebox_unsafe", false],
    ]);
  });

  it("names the property, and leaves an optional one optional", () => {
    const schema = toProviderSchema(
      { type: "object", properties: { value: { description: "any" } } },
      "openai",
    );
    expect(schema.problems).toEqual([
      "value: a schema without `type` (a value of any type) has no strict form",
    ]);
    expect(schema.parameters.required).toBeUndefined();
  });

  it("still sends a typed enum, a const and a union strict", () => {
    const parameters = {
      type: "object",
      properties: {
        unit: { type: "string", enum: ["C", "F"] },
        kind: { type: "string", const: "a" },
        id: { anyOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["unit", "kind", "id"],
    };
    expect(toProviderSchema(parameters, "openai").problems).toEqual([]);
  });
});
