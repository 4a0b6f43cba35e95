import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

// Found by a bug hunt: `pi.getFlag(name)` returned `undefined` even for a flag the extension
// registered with a `default`, where pi returns the default until the command line sets it.
// An extension that registers its tools only when a flag defaulting to true is on loaded no
// tool. Fixed: getFlag returns the registered default (no flag is ever set in Tooldock);
// registerFlag still warns (W_EXTENSION_FEATURE).
describe.each(["none", "process"] as const)("pi.getFlag (isolation %s)", (isolation) => {
  let harness: ToolHarness | undefined;
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });

  it("reads a registered flag's default, and undefined for one without a default or not registered", async () => {
    harness = await createToolHarness({
      paths: join(fixturesDir, "dialects", "pi-extensions", "flag-default-gates-tools.ts"),
      cwd: fixturesDir,
      cacheDir: testCacheDir(`regression-pi-flag-${isolation}`),
      isolation,
    });
    expect(harness.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_EXTENSION_FEATURE"]);
    expect(harness.diagnostics[0]?.message).toContain("pi.registerFlag");
    expect(harness.tools.map(({ tool }) => tool.name)).toEqual(["ext_lint"]);
    const result = await harness.call("ext_lint", {});
    expect(result.content).toEqual([{ type: "text", text: "style=strict extra=undefined other=undefined" }]);
  });
});
