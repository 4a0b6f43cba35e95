import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompiledMember, EsbuildQueue } from "../src/build/esbuild-queue.js";
import { EsbuildBatch } from "../src/compile/esbuild-batch.js";
import { type CompilerName, loadCustomTools } from "../src/index.js";
import { fakeContext, testCacheDir } from "./helpers.js";

/** One entry compiled with esbuild into the cache, or found there, as a load batch does it. */
async function compileWithEsbuild(
  entry: string,
  cacheDir: string,
  batch: EsbuildBatch,
): Promise<CompiledMember> {
  const queue = new EsbuildQueue(cacheDir, batch);
  try {
    return await queue.compile(entry);
  } finally {
    await queue.settle();
  }
}

const tsconfig = JSON.stringify({ compilerOptions: { target: "ES2022", module: "ESNext", strict: true } });

const toolSource = (name: string) => `import { label } from "./lib/label";
export default (pi: any) => ({
  name: "${name}",
  label: "Reloadable",
  description: "Says which version it is.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: \`version \${VERSION} \${label}\` }] };
  },
});
const VERSION = 1;
`;

async function scratchTool(label: string): Promise<{ dir: string; entry: string; cacheDir: string }> {
  const cacheDir = testCacheDir(label);
  const dir = join(cacheDir, "..", `${label}-tools-${Math.random().toString(36).slice(2, 8)}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "tsconfig.json"), tsconfig);
  await mkdir(join(dir, "lib"));
  await writeFile(join(dir, "lib/label.ts"), 'export const label = "one";\n');
  const entry = join(dir, "tool.ts");
  await writeFile(entry, toolSource("reloadable"));
  return { dir, entry, cacheDir };
}

describe.each<CompilerName>(["esbuild", "jiti"])("edit and reload with %s", (compiler) => {
  it("sees an edit of the entry and of a sibling helper on the next load in the same process", async () => {
    const { dir, entry, cacheDir } = await scratchTool(`reload-${compiler}`);
    const run = async () => {
      const { tools, diagnostics } = await loadCustomTools({ paths: [dir], cwd: dir, compiler, cacheDir });
      expect(diagnostics).toEqual([]);
      const result = await tools[0]?.tool.execute("1", {} as never, undefined, fakeContext(dir));
      return result?.content[0]?.type === "text" ? result.content[0].text : undefined;
    };
    expect(await run()).toBe("version 1 one");
    await writeFile(entry, toolSource("reloadable").replace("const VERSION = 1;", "const VERSION = 2;"));
    expect(await run()).toBe("version 2 one");
    await writeFile(join(dir, "lib/label.ts"), 'export const label = "two";\n');
    expect(await run()).toBe("version 2 two");
  });
});

describe("esbuild compile cache", () => {
  it("reuses the pack named after its key until an input or the tsconfig changes", async () => {
    const { dir, entry, cacheDir } = await scratchTool("cache");
    const batch = new EsbuildBatch();
    let firstPack = "";
    try {
      const cold = await compileWithEsbuild(entry, cacheDir, batch);
      firstPack = cold.pack.path;
      expect(cold.fromCache).toBe(false);
      const warm = await compileWithEsbuild(entry, cacheDir, batch);
      expect(warm).toEqual({ ...cold, fromCache: true });

      await writeFile(join(dir, "lib/label.ts"), 'export const label = "changed";\n');
      const afterHelperEdit = await compileWithEsbuild(entry, cacheDir, batch);
      expect(afterHelperEdit.fromCache).toBe(false);
      expect(afterHelperEdit.id).not.toBe(cold.id);
      expect(afterHelperEdit.pack.path).not.toBe(cold.pack.path);

      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { target: "ES2020" } }));
      const afterTsconfigEdit = await compileWithEsbuild(entry, cacheDir, batch);
      expect(afterTsconfigEdit.fromCache).toBe(false);
      expect(afterTsconfigEdit.id).not.toBe(afterHelperEdit.id);

      // Reverting the helper and tsconfig brings back the very first key.
      await writeFile(join(dir, "lib/label.ts"), 'export const label = "one";\n');
      await writeFile(join(dir, "tsconfig.json"), tsconfig);
      expect((await compileWithEsbuild(entry, cacheDir, batch)).id).toBe(cold.id);
    } finally {
      await batch.close();
    }
    const bundles = await readdir(join(cacheDir, "bundles"));
    // Only the entry's current pack (with its script and the .cjs the script is compiled as)
    // is kept, and no temporary file is left behind.
    const pack = firstPack.split("/").pop() as string;
    expect(bundles.sort()).toEqual([pack.replace(/\.mjs$/, ".cjs"), pack, pack.replace(/\.mjs$/, ".script")]);
    expect(await readdir(join(cacheDir, "index"))).toHaveLength(1);
  });

  it("reports a compile error without writing a bundle", async () => {
    const { entry, cacheDir } = await scratchTool("cache-error");
    await writeFile(entry, "export default (;\n");
    const batch = new EsbuildBatch();
    try {
      await expect(compileWithEsbuild(entry, cacheDir, batch)).rejects.toMatchObject({
        name: "CompileFailure",
        location: { line: 1, lineText: "export default (;" },
      });
    } finally {
      await batch.close();
    }
    await expect(readdir(join(cacheDir, "bundles"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
