import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeDiscoveryFileSystem } from "../src/discover/file-system.js";
import { loadCustomTools } from "../src/index.js";
import { testCacheDir } from "./helpers.js";

const compilers = ["esbuild", "jiti"] as const;

function toolSource(name: string, onFactory = ""): string {
  return `export default (pi: any) => { ${onFactory}
  return { name: "${name}", label: "${name}", description: "A tool.", parameters: pi.typebox.Type.Object({}),
    async execute() { return { content: [{ type: "text" as const, text: "${name}" }] }; } };
};
`;
}

describe("the four stages", () => {
  it.for(compilers)(
    "%s: the first module is built and evaluated while discovery still runs (discovery is streamed)",
    async (compiler) => {
      const root = join(
        testCacheDir(`stages-stream-${compiler}`),
        "..",
        `stages-${Math.random().toString(36).slice(2, 8)}`,
      );
      const first = join(root, "first");
      const second = join(root, "second");
      await mkdir(first, { recursive: true });
      await mkdir(second, { recursive: true });
      const state = globalThis as { __stagesFirstFactoryRan?: () => void };
      const firstFactoryRan = new Promise<void>((resolve) => {
        state.__stagesFirstFactoryRan = resolve;
      });
      await writeFile(
        join(first, "a.ts"),
        toolSource("first_tool", "(globalThis as any).__stagesFirstFactoryRan?.();"),
      );
      await writeFile(join(second, "b.ts"), toolSource("second_tool"));
      // Discovery of the second folder waits until the first module's factory has run: a
      // load that discovered everything before loading anything would wait here for ever (a
      // 4 s escape keeps the test from hanging, and is reported).
      let waitedInVain = false;
      const fileSystem = {
        ...nodeDiscoveryFileSystem,
        async stat(path: string) {
          if (path === second) {
            const giveUp = new Promise<"escape">((resolve) =>
              setTimeout(() => resolve("escape"), 4_000).unref(),
            );
            if ((await Promise.race([firstFactoryRan, giveUp])) === "escape") waitedInVain = true;
          }
          return nodeDiscoveryFileSystem.stat(path);
        },
      };
      const totals: number[] = [];
      const result = await loadCustomTools({
        paths: [first, second],
        cwd: root,
        cacheDir: testCacheDir(`stages-stream-${compiler}`),
        compiler,
        fileSystem,
        onProgress: ({ total }) => totals.push(total),
      });
      delete state.__stagesFirstFactoryRan;
      expect(waitedInVain).toBe(false);
      expect(result.diagnostics).toEqual([]);
      expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["first_tool", "second_tool"]);
      expect(result.modules.map((module) => module.path)).toEqual([
        join(first, "a.ts"),
        join(second, "b.ts"),
      ]);
      // `total` counts the modules found so far: the second was not found when the first was done.
      expect(totals).toEqual([1, 2]);
    },
  );
});
