import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 3): a schema whose validator cannot be compiled (here a
 * `Type.Unsafe` with a `$ref` to nothing) passed `list` and `validate`, and then every call
 * failed. Fixed: the loader compiles each tool's validator as it checks the schema, so such
 * a tool is an `E_INVALID_SCHEMA` load diagnostic and never offered to a model.
 */
describe.each<CompilerName>(["esbuild", "jiti"])("a schema nothing can validate, %s", (compiler) => {
  it("is refused at load time", async () => {
    const result = await loadCustomTools({
      paths: [join(fixturesDir, "dialects", "broken", "unvalidatable-schema.ts")],
      cwd: fixturesDir,
      compiler,
      cacheDir: testCacheDir(`unvalidatable-${compiler}`),
    });
    expect(result.tools).toEqual([]);
    expect(result.diagnostics).toMatchObject([
      { code: "E_INVALID_SCHEMA", toolName: "xcsh_broken_schema", severity: "error" },
    ]);
    expect(result.diagnostics[0]?.message).toMatch(/cannot be validated: .*\$ref|can't resolve reference/i);
  });
});
