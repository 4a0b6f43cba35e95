import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 9): a CommonJS tool that `require`s a package that is not installed
 * was `E_IMPORT` ("the module threw") under esbuild, which leaves `require` for run time, and
 * `E_COMPILE` ("Could not resolve", with the line) under jiti. A host or a CI script matching
 * on the code saw a different fault depending on the compiler. Fixed: a specifier that cannot
 * be resolved while the module is imported is `E_COMPILE` at the line that names it, on both.
 */
describe.each<CompilerName>(["esbuild", "jiti"])(
  "require() of a package that is not installed, %s",
  (compiler) => {
    it("is E_COMPILE at the require, with the install hint", async () => {
      const entry = join(fixturesDir, "compiler-parity", "require-missing-package", "index.cjs");
      const { diagnostics, tools } = await loadCustomTools({
        paths: [entry],
        cwd: fixturesDir,
        compiler,
        cacheDir: testCacheDir(`require-missing-${compiler}`),
      });
      expect(tools).toEqual([]);
      expect(diagnostics).toMatchObject([
        {
          code: "E_COMPILE",
          severity: "error",
          path: entry,
          location: { line: 1, column: 25 },
          hint: expect.stringContaining('Install "tooldock-parity-package-that-does-not-exist"'),
        },
      ]);
      expect(diagnostics[0]?.message).toContain(
        `Could not resolve "tooldock-parity-package-that-does-not-exist" (${entry}:1:25)`,
      );
    });
  },
);
