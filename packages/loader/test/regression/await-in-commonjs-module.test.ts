import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fixturesDir, testCacheDir } from "../helpers.js";

/**
 * Attack (issue 14, item 9): a `.cts` tool that awaits at its top level. Node refuses that
 * (CommonJS has no top-level await). esbuild quietly made the file an ES module, whose
 * `module.exports` then threw at run time (`E_IMPORT module is not defined in ES module
 * scope`), while jiti ran it and the tool loaded. Fixed: both report `E_COMPILE` at the
 * `await`, with the same message; an `await` inside a function of a CommonJS file is fine.
 */
const scratch = testCacheDir("await-in-commonjs");
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe.each<CompilerName>(["esbuild", "jiti"])("top-level await in a CommonJS module, %s", (compiler) => {
  const load = (entry: string) =>
    loadCustomTools({
      paths: [entry],
      cwd: fixturesDir,
      compiler,
      cacheDir: join(scratch, `cache-${compiler}`),
    });

  it("is E_COMPILE at the await", async () => {
    const entry = join(fixturesDir, "compiler-parity", "await-in-commonjs", "index.cts");
    const { diagnostics, tools } = await load(entry);
    expect(tools).toEqual([]);
    expect(diagnostics).toMatchObject([{ code: "E_COMPILE", location: { line: 1, column: 23 } }]);
    expect(diagnostics[0]?.message).toContain("Top-level await is not available in a CommonJS module");
  });

  it("leaves an await inside a function alone", async () => {
    const folder = join(scratch, `async-function-${compiler}`);
    await mkdir(folder, { recursive: true });
    const entry = join(folder, "index.cjs");
    await writeFile(
      entry,
      [
        "async function later() { return await Promise.resolve('awaited'); }",
        "module.exports = (pi) => ({ name: 'cjs_async', label: 'x', description: 'x',",
        "  parameters: pi.typebox.Type.Object({}),",
        "  async execute() { return { content: [{ type: 'text', text: await later() }] }; } });",
        "",
      ].join("\n"),
    );
    const { diagnostics, tools } = await load(entry);
    expect(diagnostics).toEqual([]);
    expect(tools.map((loaded) => loaded.tool.name)).toEqual(["cjs_async"]);
  });
});
