import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverToolModules } from "../../src/index.js";
import { fixturesDir } from "../helpers.js";

/**
 * Attack (issue 14, item 4): oh-my-pi plugins declare `"omp": { "tools": "tools" }`, a string
 * naming a folder, and more tools under `features.<name>.tools` of features that are on by
 * default. The string was rejected with `E_DISCOVERY … not an array of paths`, and features
 * were ignored. Fixed: a string or an array of files and folders, and the tools of features
 * with `default: true`.
 */
describe("an oh-my-pi plugin manifest", () => {
  const plugin = (name: string) => join(fixturesDir, "dialects", "oh-my-pi", name);
  const relative = (paths: { path: string }[], root: string) =>
    paths.map((module) => module.path.slice(root.length + 1));

  it('"tools": "tools" discovers the folder by the usual rules', async () => {
    const root = plugin("plugin-tools-folder");
    const { modules, diagnostics } = await discoverToolModules({ paths: [root] });
    expect(diagnostics).toEqual([]);
    expect(relative(modules, root)).toEqual(["tools/nested/index.ts", "tools/reverse.ts"]);
  });

  it("features with default: true add their tools", async () => {
    const root = plugin("plugin-features");
    const { modules, diagnostics } = await discoverToolModules({ paths: [root] });
    expect(diagnostics).toEqual([]);
    expect(relative(modules, root)).toEqual(["base.ts", "features/search/index.ts"]);
  });
});
