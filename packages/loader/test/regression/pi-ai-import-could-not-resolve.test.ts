import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 1): tools written for pi import values from the agent's packages,
 * `StringEnum` from `@mariozechner/pi-ai`, `Text` from `@mariozechner/pi-tui`, which pi served
 * at run time. None is installed beside the tool, so every such module failed to load with
 * `E_COMPILE Could not resolve "@mariozechner/pi-ai"`. Fixed: those packages (and
 * oh-my-pi's and xcsh's copies) are served like `@tooldock/sdk`, by working stand-ins.
 */
describe.each<CompilerName>(["esbuild", "jiti"])("a pi tool importing pi-ai and pi-tui, %s", (compiler) => {
  it("loads and its StringEnum schema works", async () => {
    const result = await loadCustomTools({
      paths: [
        join(fixturesDir, "dialects", "pi", "string-enum-todo"),
        join(fixturesDir, "dialects", "oh-my-pi", "import-omp-packages.ts"),
      ],
      cwd: fixturesDir,
      compiler,
      cacheDir: testCacheDir(`pi-ai-${compiler}`),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["pi_todo", "omp_color"]);
  });
});
