import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Bug: with esbuild, the second load in a process of a module that called process.exit while
// it was imported reported E_IMPORT ("process.exit(3) was blocked by Tooldock"): Node caches
// the failed module and rethrows the guard's sentinel without calling process.exit again.
describe.each<CompilerName>(["esbuild", "jiti"])("reloading a module that exits (%s)", (compiler) => {
  it("reports E_PROCESS_EXIT on every load in the same process", async () => {
    const cacheDir = testCacheDir(`regression-exit-${compiler}`);
    const before = process.exit;
    for (let round = 0; round < 2; round += 1) {
      const result = await loadCustomTools({
        paths: ["error-process-exit"],
        cwd: fixturesDir,
        compiler,
        cacheDir,
      });
      expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
        "E_PROCESS_EXIT",
        "E_PROCESS_EXIT",
      ]);
      expect(result.diagnostics[1]?.message).toContain("called process.exit(3) while it was imported");
      expect(process.exit).toBe(before);
    }
  });
});
