import { describe, expect, it, vi } from "vitest";
import { loadCustomTools } from "../src/index.js";
import { fixturesDir, rewritePaths, testCacheDir } from "./helpers.js";

vi.mock("esbuild", () => {
  throw new Error("esbuild binary missing for this platform");
});

describe("when esbuild cannot be imported", () => {
  it("falls back to jiti with one warning and still loads the tools", async () => {
    const result = await loadCustomTools({
      paths: ["basic/typebox-tool.ts", "basic/zod-tool.ts"],
      cwd: fixturesDir,
      cacheDir: testCacheDir("fallback"),
    });
    expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["typebox_greet", "zod_count"]);
    expect(rewritePaths(result.diagnostics)).toEqual([
      {
        code: "W_COMPILER_FALLBACK",
        severity: "warning",
        message: expect.stringContaining("esbuild could not be loaded"),
        path: "<cwd>/basic/typebox-tool.ts",
        hint: 'Reinstall esbuild for this platform, or pass compiler: "jiti" to silence this warning.',
      },
    ]);
  });
});
