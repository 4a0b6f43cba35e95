import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 9): jiti turns `import { name } from "./helper.js"` into a property
 * read, so a name the helper does not export (a typo, a renamed export) was silently
 * `undefined` under jiti: the module loaded and failed later, in a call, while esbuild refused
 * it with `E_COMPILE No matching export`. The same held for `@tooldock/sdk` and `node:fs`.
 * Fixed: under jiti the tool's own files are checked before any code runs, and every compiler
 * gives `E_COMPILE` at the imported name.
 */
describe.each<CompilerName>(["esbuild", "jiti"])(
  "a name the imported module does not export, %s",
  (compiler) => {
    it.each([
      ["missing-named-export", "./helper.js", "notExported", 10],
      ["missing-default-export", "./helper.js", "default", 8],
      ["missing-host-export", "@tooldock/sdk", "notAnSdkExport", 10],
      ["missing-builtin-export", "node:fs", "notAFunctionOfFs", 10],
    ])("%s is E_COMPILE at the import", async (fault, specifier, name, column) => {
      const entry = join(fixturesDir, "compiler-parity", fault, "index.ts");
      const { diagnostics, tools } = await loadCustomTools({
        paths: [entry],
        cwd: fixturesDir,
        compiler,
        cacheDir: testCacheDir(`missing-export-${compiler}`),
      });
      expect(tools).toEqual([]);
      expect(diagnostics).toMatchObject([
        {
          code: "E_COMPILE",
          location: { line: 2, column },
          hint: expect.stringContaining(`export "${name}"`),
        },
      ]);
      if (!specifier.startsWith(".")) {
        expect(diagnostics[0]?.message).toContain(
          `No matching export in "${specifier}" for import "${name}"`,
        );
      }
    });
  },
);
