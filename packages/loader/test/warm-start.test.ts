import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { fakeContext, testCacheDir } from "./helpers.js";

const esbuildImports = vi.hoisted(() => ({ count: 0, stops: 0 }));

const source = (text: string) => `export default (pi) => ({
  name: "warm", label: "Warm", description: "Cached.", parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text", text: ${JSON.stringify(text)} }] }; },
});
`;

describe("a fully warm start", () => {
  it("loads from the cache without importing esbuild", async () => {
    const cacheDir = testCacheDir("warm");
    const dir = join(cacheDir, "..", `warm-tools-${Math.random().toString(36).slice(2, 8)}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "tsconfig.json"), "{}");
    await writeFile(join(dir, "warm.mjs"), source("cold"));
    const load = async () => {
      // A fresh copy of the loader each time, as in a new host process.
      vi.resetModules();
      vi.doMock("esbuild", async (importOriginal) => {
        esbuildImports.count += 1;
        const esbuild = await importOriginal<typeof import("esbuild")>();
        const stop = async () => {
          esbuildImports.stops += 1;
          await esbuild.stop();
        };
        return { ...esbuild, stop };
      });
      const { loadCustomTools } = await import("../src/index.js");
      const { tools, diagnostics, cached } = await loadCustomTools({ paths: [dir], cwd: dir, cacheDir });
      expect(diagnostics).toEqual([]);
      // On Node 22.15+ a miss loads file by file and esbuild builds its pack after the load.
      expect(await cached).toEqual([]);
      const result = await tools[0]?.tool.execute("1", {} as never, undefined, fakeContext(dir));
      return result?.content[0]?.type === "text" ? result.content[0].text : undefined;
    };

    expect(await load()).toBe("cold");
    expect(esbuildImports).toEqual({ count: 1, stops: 1 }); // the service is stopped after the batch
    expect(await load()).toBe("cold");
    expect(esbuildImports).toEqual({ count: 1, stops: 1 }); // warm: esbuild was never imported

    await writeFile(join(dir, "warm.mjs"), source("edited"));
    expect(await load()).toBe("edited");
    expect(esbuildImports).toEqual({ count: 2, stops: 2 }); // a miss in a fresh loader imports it again
  });
});
