import { describe, expect, it, vi } from "vitest";
import { perFileAvailable } from "../src/compile/per-file/per-file-available.js";
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
    // On Node 22.15+ a miss loads file by file without esbuild: the fallback is met after the
    // load, building the packs, and said by `cached`. Elsewhere the load itself falls back.
    const afterLoad = perFileAvailable();
    const [warned, quiet] = afterLoad
      ? [await result.cached, result.diagnostics]
      : [result.diagnostics, await result.cached];
    expect(quiet).toEqual([]);
    expect(rewritePaths(warned)).toEqual([
      {
        code: "W_COMPILER_FALLBACK",
        severity: "warning",
        message: expect.stringContaining("esbuild could not be loaded"),
        path: "<cwd>/basic/typebox-tool.ts",
        hint: afterLoad
          ? 'Reinstall esbuild for this platform, or pass compiler: "jiti" to compile with jiti and its cache.'
          : 'Reinstall esbuild for this platform, or pass compiler: "jiti" to silence this warning.',
      },
    ]);
  });
});
