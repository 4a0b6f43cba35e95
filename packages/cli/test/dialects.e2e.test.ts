import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, repoRoot, runCli } from "./cli-process.js";

/**
 * Issue 14: modules written for pi, oh-my-pi and xcsh pass `tooldock validate` and their
 * calls work, on both compilers, with none of those hosts' packages installed.
 */
const dialects = join(repoRoot, "packages/loader/test/fixtures/dialects");
const folders = ["pi", "oh-my-pi", "xcsh"].map((host) => join(dialects, host));

beforeAll(assertBuilt);

describe.each(["esbuild", "jiti"])("tooldock on other hosts' modules, compiler %s", (compiler) => {
  const env = { TOOLDOCK_COMPILER: compiler };

  it("validate passes: every tool loads; missing host exports are warnings", async () => {
    const run = await runCli(["validate", ...folders, "--format", "json"], { env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ modules: 16, tools: 16, errors: 0, warnings: 4 });
    expect(report.diagnostics.map((diagnostic: { code: string }) => diagnostic.code)).toEqual([
      // oh-my-pi/plugin-install-manifest's "omp.variables", which lists no tools.
      "W_MANIFEST_FIELD",
      "W_HOST_EXPORT_MISSING",
      "W_HOST_EXPORT_MISSING",
      "W_HOST_EXPORT_MISSING",
    ]);
  });

  it("call validates a StringEnum argument and runs the tool", async () => {
    const tool = join(dialects, "pi", "string-enum-todo");
    const good = await runCli(["call", "pi_todo", tool, "--args", '{"action":"add","text":"milk"}'], { env });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain("[ ] milk");
    const bad = await runCli(["call", "pi_todo", tool, "--args", '{"action":"drop"}'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('/action: Expected one of "list", "add", "done"');
  });
});

/**
 * Issue 26: pi extensions and opencode tool files pass `tooldock validate` (isolated, its
 * default, and in-process), on both compilers.
 */
describe.each(["esbuild", "jiti"])(
  "tooldock validate on pi extensions and opencode tools, compiler %s",
  (compiler) => {
    const env = { TOOLDOCK_COMPILER: compiler };
    const extensions = [
      "notes-extension.ts",
      "tools-at-start.ts",
      "ui-in-context.ts",
      "context-fields.ts",
      "extension-package",
      "commands-and-events.ts",
    ].map((name) => join(dialects, "pi-extensions", name));

    it.each([[[]], [["--no-isolate"]]])("validate passes %j", async (extra: string[]) => {
      const run = await runCli(["validate", ...extensions, "--format", "json", ...extra], { env });
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.ok).toBe(true);
      expect(report.summary.errors).toBe(0);
      expect(report.summary.modules).toBe(6);
      expect(new Set(report.diagnostics.map((diagnostic: { code: string }) => diagnostic.code))).toEqual(
        new Set(["W_EXTENSION_FEATURE"]),
      );
      const opencode = await runCli(
        ["validate", join(dialects, "opencode", "project"), "--opencode", "--format", "json", ...extra],
        { env },
      );
      expect(opencode.code, opencode.stderr).toBe(0);
      const tools = JSON.parse(opencode.stdout)
        .tools.map((tool: { name: string }) => tool.name)
        .sort();
      expect(tools).toEqual(["deploy", "legacy", "math_sum", "math_times", "shell", "where"]);
    });
  },
);
