import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, formatDiagnostic, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 9): esbuild reports columns in UTF-8 bytes. A syntax error after
 * `const café = "été 🙂";` was at column 44 under esbuild and 39 under jiti, and the caret
 * `formatDiagnostic` draws under the source line pointed past the error. Fixed: esbuild's
 * columns are turned into UTF-16 code units, as jiti, editors and JavaScript strings count.
 */
describe.each<CompilerName>(["esbuild", "jiti"])("a syntax error after non-ASCII text, %s", (compiler) => {
  it("is at the column an editor shows, and the caret is under it", async () => {
    const entry = join(fixturesDir, "compiler-parity", "syntax-error-after-unicode", "index.ts");
    const { diagnostics } = await loadCustomTools({
      paths: [entry],
      cwd: fixturesDir,
      compiler,
      cacheDir: testCacheDir(`unicode-column-${compiler}`),
    });
    expect(diagnostics).toMatchObject([{ code: "E_COMPILE", location: { line: 4, column: 39 } }]);
    const lineText = diagnostics[0]?.location?.lineText ?? "";
    expect(lineText.slice(38, 39)).toBe(";");
    expect(formatDiagnostic(diagnostics[0] as (typeof diagnostics)[0])).toContain(`${lineText}\n`);
  });
});
