// The SDK README's three examples (files in packages/sdk/test/readme-examples/, copied into
// the README as snippets) pass `tooldock validate --strict`: a newcomer who copies one gets a
// tool OpenAI's strict mode accepts. They used to fail it (open objects, a parameter without a
// description).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, repoRoot, runCli } from "./cli-process.js";

beforeAll(assertBuilt);

describe("the SDK README's examples", () => {
  it("pass validate --strict, three modules with one tool each", async () => {
    const examples = join(repoRoot, "packages/sdk/test/readme-examples");
    const run = await runCli(["validate", examples, "--strict", "--format", "json"]);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout);
    expect(report.diagnostics).toEqual([]);
    expect(report.summary).toEqual({ modules: 3, tools: 3, errors: 0, warnings: 0 });
    expect(report.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      "batch_rename_preview",
      "http_status",
      "word_count",
    ]);
    expect(run.code).toBe(0);
  });
});
