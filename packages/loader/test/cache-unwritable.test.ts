import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCustomTools } from "../src/index.js";
import { fixturesDir, rewritePaths, testCacheDir } from "./helpers.js";

describe("when the compile cache cannot be written", () => {
  it("loads with jiti instead and warns once", async () => {
    const cacheDir = testCacheDir("unwritable");
    await mkdir(dirname(cacheDir), { recursive: true });
    await writeFile(cacheDir, "a file where the cache folder should be");
    const result = await loadCustomTools({
      paths: ["basic/typebox-tool.ts", "basic/zod-tool.ts"],
      cwd: fixturesDir,
      cacheDir,
      compiler: "esbuild",
    });
    expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["typebox_greet", "zod_count"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(rewritePaths(result.diagnostics[0])).toMatchObject({
      code: "W_CACHE_UNWRITABLE",
      severity: "warning",
      path: "<cwd>/basic/typebox-tool.ts",
    });
    expect(result.diagnostics[0]?.message).toContain(`cannot write the compile cache in ${cacheDir}`);
  });
});
