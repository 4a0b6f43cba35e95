import type { Diagnostic } from "@tooldock/sdk";
import { XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "./cli-process.js";

const fixture = new URL("./fixtures/lint-warnings", import.meta.url).pathname;

beforeAll(assertBuilt);

describe("tooldock validate --strict", () => {
  it("passes a loosely written tool without --strict", async () => {
    const run = await runCli(["validate", fixture, "--format", "json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, summary: { errors: 0, warnings: 0 } });
  });

  it("adds the contract lints as warnings and fails on them", async () => {
    const run = await runCli(["validate", fixture, "--strict", "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    const diagnostics = report.diagnostics as Diagnostic[];
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      "W_MISSING_DESCRIPTION",
      "W_MISSING_PARAMETER_DESCRIPTION",
      "W_MISSING_PARAMETER_DESCRIPTION",
      "W_PROVIDER_NAME",
      "W_OPENAI_STRICT",
    ]);
    for (const diagnostic of diagnostics) {
      expect(diagnostic).toMatchObject({ severity: "warning", toolName: `loose_${"x".repeat(58)}` });
      expect(diagnostic.path).toContain("loose-tool.ts");
      expect(diagnostic.hint).toBeTruthy();
    }
    const strictMode = diagnostics.find((diagnostic) => diagnostic.code === "W_OPENAI_STRICT");
    expect(strictMode?.message).toContain("optional property `limit` does not accept null");
    expect(report.summary).toEqual({ modules: 1, tools: 1, errors: 0, warnings: 5 });
  });

  it("turns each warning into a failing JUnit case", async () => {
    const run = await runCli(["validate", fixture, "--strict", "--format", "junit"]);
    expect(run.code).toBe(1);
    expect(XMLValidator.validate(run.stdout)).toBe(true);
    expect(run.stdout).toContain('failures="5"');
  });
});
