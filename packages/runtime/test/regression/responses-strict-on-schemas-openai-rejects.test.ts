import { Type } from "@sinclair/typebox";
import { textResult } from "@tooldock/sdk";
import { toStrictJsonSchema } from "openai/lib/transform";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Session } from "../../src/session/session.js";
import { toOpenAIResponsesRequest } from "../../src/steering/openai-responses-request.js";

/**
 * Failure (issue 27, item 1): the Responses adapter sent `strict: true` on schemas OpenAI
 * rejects: a zod `discriminatedUnion` or `xor` (JSON Schema `oneOf`) and zod and TypeBox
 * tuples, each of closed objects. The openai SDK's own strict normaliser refused all four. Fixed: a union whose
 * branches exclude each other goes as `anyOf` (strict), a tuple goes without `strict`.
 */
describe("the Responses adapter and schemas OpenAI's strict mode rejects", () => {
  const session = new Session();
  const tools = {
    shape: z.strictObject({
      shape: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("circle"), radius: z.number() }),
        z.strictObject({ kind: z.literal("square"), side: z.number() }),
      ]),
    }),
    either: z.strictObject({ id: z.xor([z.string(), z.number()]) }),
    zod_tuple: z.strictObject({ point: z.tuple([z.number(), z.number()]) }),
    typebox_tuple: Type.Object(
      { point: Type.Tuple([Type.Number(), Type.Number()]) },
      { additionalProperties: false },
    ),
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
  const sent = toOpenAIResponsesRequest(session).tools;

  it.each(sent.map((tool) => [tool.name, tool] as const))(
    "%s: strict only on a schema the SDK accepts as it is",
    (_, tool) => {
      if (tool.strict) expect(() => toStrictJsonSchema(structuredClone(tool.parameters))).not.toThrow();
    },
  );

  it("sends the unions strict (as anyOf) and the tuples without strict", () => {
    expect(sent.map((tool) => [tool.name, tool.strict])).toEqual([
      ["shape", true],
      ["either", true],
      ["zod_tuple", false],
      ["typebox_tuple", false],
    ]);
  });
});
