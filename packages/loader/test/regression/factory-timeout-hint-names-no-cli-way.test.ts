import { join } from "node:path";
import { expect, it } from "vitest";
import { hintFor } from "../../src/format/format-diagnostic.js";
import { loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: E_FACTORY_TIMEOUT said "raise factoryTimeoutMs", an option of the
// library a user of the `tooldock` CLI cannot set. Fixed: the hint names the option and the
// CLI's ways, TOOLDOCK_FACTORY_TIMEOUT_MS and, in a tool host, --isolate-timeout.
it("the E_FACTORY_TIMEOUT hint says how a CLI user gives a factory longer (factory-timeout-hint-names-no-cli-way)", async () => {
  const result = await loadCustomTools({
    paths: [join(fixturesDir, "error-factory-timeout", "never-settles.ts")],
    cwd: fixturesDir,
    cacheDir: testCacheDir("regression-factory-timeout-hint"),
    factoryTimeoutMs: 50,
  });
  expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_FACTORY_TIMEOUT"]);
  const hint = result.diagnostics[0]?.hint ?? "";
  expect(hint).toContain("factoryTimeoutMs");
  expect(hint).toContain("TOOLDOCK_FACTORY_TIMEOUT_MS");
  expect(hint).toContain("--isolate-timeout");
  expect(hintFor({ ...result.diagnostics[0], hint: undefined } as never)).toContain(
    "TOOLDOCK_FACTORY_TIMEOUT_MS",
  );
});
