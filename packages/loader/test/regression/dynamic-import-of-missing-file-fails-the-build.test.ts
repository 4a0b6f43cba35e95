import { rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fakeContext, fixturesDir, scratchCopy, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 9): a factory that runs `await import("./helper.js")` for a file
 * that does not exist (yet) failed the whole esbuild build, `E_COMPILE`, while jiti (and
 * Node) fail only the code that runs the import: `E_FACTORY_THROW`. An optional helper loaded
 * with `import()` in a call could not be missing at all under esbuild. Fixed: esbuild leaves a
 * relative `import()` it cannot resolve for run time, and rebuilds the bundle on each load
 * until the file exists.
 */
describe.each<CompilerName>(["esbuild", "jiti"])(
  "import() of a missing file in a factory, %s",
  (compiler) => {
    let scratch: string | undefined;
    afterEach(async () => {
      if (scratch !== undefined) await rm(dirname(dirname(scratch)), { recursive: true, force: true });
    });

    it("is the factory's throw, and loads once the file exists", async () => {
      scratch = await scratchCopy(join("compiler-parity", "dynamic-import-missing-in-factory"));
      const entry = join(scratch, "index.ts");
      const cacheDir = testCacheDir(`dynamic-import-${compiler}`);
      const load = () => loadCustomTools({ paths: [entry], cwd: fixturesDir, compiler, cacheDir });

      const first = await load();
      expect(first.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_FACTORY_THROW"]);
      expect(first.diagnostics[0]?.message).toContain("no-such-helper");

      await writeFile(join(scratch, "no-such-helper.ts"), 'export const greeting = "found";\n');
      const second = await load();
      expect(second.diagnostics).toEqual([]);
      const result = await second.tools[0]?.tool.execute("call", {}, undefined, fakeContext());
      expect(result?.isError).toBeFalsy();
      expect(result?.content[0]).toMatchObject({ type: "text" });
      await rm(cacheDir, { recursive: true, force: true });
    });
  },
);
