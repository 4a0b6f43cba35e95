// Found by a bug hunt: `validate --strict` on a parameter written as the W_OPENAI_STRICT hint
// recommends, `Type.Optional(Type.Union([Type.String({ description: "A" }), Type.Null()]))` or
// zod's `z.string().describe("A").nullish()`, warned W_MISSING_PARAMETER_DESCRIPTION: the
// description is on the string branch of the `anyOf`, and the lint read only the property's
// own. Fixed: a description on the property, or on every branch of its anyOf/oneOf that is not
// `null`, counts; a branch without one is still a warning.
import type { Diagnostic } from "@tooldock/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

beforeAll(assertBuilt);

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
    tool("typebox_nullable", Type.Object(
      { a: Type.Optional(Type.Union([Type.String({ description: "A" }), Type.Null()])) },
      { additionalProperties: false },
    )),
    tool("zod_nullish", z.strictObject({ a: z.string().describe("A").nullish() })),
    tool("half_described", Type.Object(
      { b: Type.Union([Type.String({ description: "B" }), Type.Number(), Type.Null()]) },
      { additionalProperties: false },
    )),
  ];
};
`;

describe("validate --strict on descriptions inside a nullable union", () => {
  it("takes the description of every non-null branch, and still warns when a branch has none", async () => {
    const folder = await tempDir({ "nullable.js": MODULE });
    try {
      const run = await runCli(["validate", folder.path, "--strict", "--format", "json"]);
      const report = JSON.parse(run.stdout);
      expect(report.summary).toMatchObject({ tools: 3, errors: 0 });
      const missing = (report.diagnostics as Diagnostic[]).filter(
        (diagnostic) => diagnostic.code === "W_MISSING_PARAMETER_DESCRIPTION",
      );
      expect(missing.map((diagnostic) => diagnostic.toolName)).toEqual(["half_described"]);
      expect(report.diagnostics.map((diagnostic: Diagnostic) => diagnostic.code)).toEqual([
        "W_MISSING_PARAMETER_DESCRIPTION",
      ]);
    } finally {
      await folder.remove();
    }
  });
});
