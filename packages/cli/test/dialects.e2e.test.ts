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
