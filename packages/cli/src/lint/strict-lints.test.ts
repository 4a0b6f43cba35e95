import { openAIStrictProblems } from "@tooldock/runtime";
import { describe, expect, it } from "vitest";
import type { ToolEntry } from "../report/report-types.js";
import { lintTools } from "./strict-lints.js";

const strictParameters = {
  type: "object",
  properties: { path: { type: "string", description: "Where" } },
  required: ["path"],
  additionalProperties: false,
};

const tool = (overrides: Partial<ToolEntry>): ToolEntry => ({
  name: "good_tool",
  label: "Good",
  description: "Does one thing well.",
  path: "/tools/good.ts",
  hidden: false,
  deferrable: false,
  annotations: { title: "Good" },
  parameters: strictParameters,
  ...overrides,
});

const codes = (entry: ToolEntry) => lintTools([entry]).map((diagnostic) => diagnostic.code);

describe("lintTools", () => {
  it("finds nothing in a well-described, strict-mode tool", () => {
    expect(lintTools([tool({})])).toEqual([]);
  });

  it("flags empty tool and parameter descriptions", () => {
    expect(codes(tool({ description: "  " }))).toEqual(["W_MISSING_DESCRIPTION"]);
    const parameters = { ...strictParameters, properties: { path: { type: "string" } } };
    const [diagnostic] = lintTools([tool({ parameters })]);
    expect(diagnostic).toMatchObject({
      code: "W_MISSING_PARAMETER_DESCRIPTION",
      severity: "warning",
      path: "/tools/good.ts",
      toolName: "good_tool",
    });
    expect(diagnostic?.message).toContain('"path"');
    expect(diagnostic?.hint).toBeTruthy();
  });

  it("flags a top-level schema that is not an object", () => {
    expect(codes(tool({ parameters: { type: "string" } }))).toContain("W_SCHEMA_NOT_OBJECT");
  });

  it("flags names a provider rejects, naming the provider", () => {
    const [diagnostic] = lintTools([tool({ name: "a".repeat(64) })]);
    expect(diagnostic?.code).toBe("W_PROVIDER_NAME");
    expect(diagnostic?.message).toContain("Gemini");
    expect(codes(tool({ name: "has.dot" }))).toEqual(["W_PROVIDER_NAME"]);
  });
});

describe("openAIStrictProblems", () => {
  it("closes objects and names each optional property that does not accept null, at every level", () => {
    const problems = openAIStrictProblems({
      type: "object",
      properties: {
        a: { type: "string" },
        nested: { type: "object", properties: { b: { type: "number" } }, required: ["b"] },
        list: { type: "array", items: { type: "object", properties: {}, additionalProperties: false } },
      },
      required: ["nested", "list"],
      additionalProperties: false,
    });
    expect(problems).toEqual([
      "(root): optional property `a` does not accept null (strict mode requires every property)",
    ]);
  });

  it("warns about a property of any value (no `type`), which OpenAI's strict mode rejects", () => {
    const parameters = {
      type: "object",
      properties: { key: { type: "string", description: "Key" }, value: { description: "Any JSON value" } },
      required: ["key", "value"],
    };
    const [diagnostic] = lintTools([tool({ parameters })]);
    expect(diagnostic?.code).toBe("W_OPENAI_STRICT");
    expect(diagnostic?.message).toContain("- value: a schema without `type`");
  });

  it("rejects unsupported keywords and a non-object root", () => {
    expect(openAIStrictProblems({ type: "string" })[0]).toContain("(root)");
    expect(
      openAIStrictProblems({
        type: "object",
        properties: { x: { allOf: [{ type: "string" }], description: "x" } },
        required: ["x"],
        additionalProperties: false,
      }),
    ).toEqual(["x: `allOf` that does not merge into one object"]);
  });
});
