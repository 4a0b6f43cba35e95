import type { Diagnostic } from "@tooldock/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

/**
 * Failure (issue 27, item 1): `validate --strict` passed four tools whose schemas OpenAI's
 * strict mode rejects (a zod `discriminatedUnion` and `xor`, zod and TypeBox tuples, all of
 * closed objects): `W_OPENAI_STRICT` did not know `oneOf` or tuples. Fixed: the lint uses the
 * runtime's `toProviderSchema`, which sends the exclusive unions as `anyOf` (no warning) and
 * names each tuple.
 */
const MODULE = `export default (pi) => {
  const z = pi.zod;
  const { Type } = pi.typebox;
  const tool = (name, parameters) => ({
    name,
    label: name,
    description: "Checks " + name,
    parameters,
    async execute() {
      return { content: [{ type: "text", text: "ok" }] };
    },
  });
  return [
    tool("shape", z.strictObject({
      shape: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("circle").describe("kind"), radius: z.number().describe("radius") }),
        z.strictObject({ kind: z.literal("square").describe("kind"), side: z.number().describe("side") }),
      ]).describe("shape"),
    })),
    tool("either", z.strictObject({ id: z.xor([z.string(), z.number()]).describe("id") })),
    tool("zod_tuple", z.strictObject({ point: z.tuple([z.number(), z.number()]).describe("point") })),
    tool("typebox_tuple", Type.Object(
      { point: Type.Tuple([Type.Number(), Type.Number()], { description: "point" }) },
      { additionalProperties: false },
    )),
  ];
};
`;

beforeAll(assertBuilt);

describe("validate --strict on schemas OpenAI's strict mode rejects", () => {
  it("warns about the two tuples, by construct, and not about the unions sent as anyOf", async () => {
    const folder = await tempDir({ "schemas.js": MODULE });
    const run = await runCli(["validate", folder.path, "--strict", "--format", "json"]);
    await folder.remove();
    const report = JSON.parse(run.stdout);
    const strict = (report.diagnostics as Diagnostic[]).filter(
      (diagnostic) => diagnostic.code === "W_OPENAI_STRICT",
    );
    expect(
      strict.map((diagnostic) => [diagnostic.toolName, diagnostic.message.split("\n").slice(1)]),
    ).toEqual([
      ["zod_tuple", ["- point: a tuple has no strict form"]],
      ["typebox_tuple", ["- point: a tuple has no strict form"]],
    ]);
    expect(report.summary).toMatchObject({ tools: 4, errors: 0 });
    expect(run.code).toBe(1);
  });
});
