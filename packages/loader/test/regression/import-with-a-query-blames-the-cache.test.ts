import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Found by review: `import { a } from "./a.js?v=1"` built (esbuild resolves the file and keeps
// the suffix), then recording the pack's inputs stat'ed `a.ts?v=1`, which is no file: the load
// warned W_CACHE_UNWRITABLE ("make the cache writable"), fell back to jiti, and jiti reported
// E_COMPILE "Could not resolve", for a module the bundle loads.
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe("an import with a query", () => {
  it("loads as the bundle builds it, with no word about the cache, and again from the cache", async () => {
    const root = testCacheDir("regression-import-query");
    roots.push(root);
    const tools = join(root, "tools", "versioned");
    await mkdir(tools, { recursive: true });
    await writeFile(
      join(tools, "index.ts"),
      `import { a } from "./a.js?v=1";
export default (pi: any) => ({
  name: "versioned", label: "Versioned", description: "Imports a file with a query.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: String(a) }] }; },
});
`,
    );
    await writeFile(join(tools, "a.ts"), "export const a = 1;\n");
    const options = { paths: [join(root, "tools")], cwd: root, cacheDir: join(root, "cache") };
    for (const round of ["first", "second"]) {
      const loaded = await loadCustomTools(options);
      expect(loaded.diagnostics, round).toEqual([]);
      const tool = loaded.tools[0]?.tool;
      const called = await tool?.execute("1", {}, undefined, undefined as never);
      expect(called?.content[0], round).toEqual({ type: "text", text: "1" });
    }
  });
});
