import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, EXAMPLE_TOOL_NAMES, examplesDir, runCli } from "./cli-process.js";

beforeAll(assertBuilt);

describe("tooldock schema", () => {
  it("--provider openai prints OpenAI function tools", async () => {
    const run = await runCli(["schema", examplesDir, "--provider", "openai"]);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(tools.map((tool) => (tool.function as { name: string }).name)).toEqual(EXAMPLE_TOOL_NAMES);
    for (const tool of tools) {
      expect(Object.keys(tool)).toEqual(["type", "function"]);
      expect(tool.type).toBe("function");
      const fn = tool.function as { name: string; description: string; parameters: Record<string, unknown> };
      expect(fn.description.length).toBeGreaterThan(0);
      expect(fn.parameters.type).toBe("object");
      expect(fn.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it("--provider anthropic and gemini print their own shapes", async () => {
    const anthropic = JSON.parse((await runCli(["schema", examplesDir, "--provider", "anthropic"])).stdout);
    expect(anthropic[0]).toMatchObject({ name: "batch_rename_preview", input_schema: { type: "object" } });
    const gemini = JSON.parse((await runCli(["schema", examplesDir, "--provider", "gemini"])).stdout);
    expect(gemini[0].functionDeclarations.map((declaration: { name: string }) => declaration.name)).toEqual(
      EXAMPLE_TOOL_NAMES,
    );
  });

  it("defaults to name, description and JSON Schema parameters", async () => {
    const tools = JSON.parse((await runCli(["schema", examplesDir])).stdout);
    expect(Object.keys(tools[0])).toEqual(["name", "description", "parameters"]);
  });

  it("rejects an unknown provider with exit 2 and the usage line", async () => {
    const run = await runCli(["schema", examplesDir, "--provider", "cohere"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--provider must be one of json, openai, anthropic, gemini");
    expect(run.stderr).toContain("usage: tooldock schema");
  });
});
