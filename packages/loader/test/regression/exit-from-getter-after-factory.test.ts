import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { goodModule, testCacheDir } from "../helpers.js";

// Bug: the loader runs a module's code again while it reads what the module produced (a
// getter on a tool, a Proxy trap of the list the factory returned, a getter on
// `module.exports.default`), and a returned Proxy list whose `length` trap throws made the
// whole load reject ("internal error"). What such code throws is one diagnostic of the module;
// the load goes on. (An exit call made there is no longer blocked: a module that ends the
// process on purpose is an adversary, for the isolated tool host; see docs/reliability.md.)
const THROWING_GETTERS = {
  "b-tool-getter.mjs": `export default (pi) => ({
  get name() { throw new Error("no name"); },
  label: "x",
  description: "x",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
});`,
  "c-throwing-list.mjs": `export default () => new Proxy([], {
  get(target, key) {
    if (key === "length") throw new Error("no reads");
    return Reflect.get(target, key);
  },
});`,
  "d-exports-getter.cjs": `module.exports = { get default() { throw new Error("no default"); } };`,
};

// The first entry is a valid tool (it claims its name), then reading the second one throws.
const THROWING_AFTER_CLAIM = `export default (pi) => new Proxy([
  {
    name: "claimed_then_dropped",
    label: "x",
    description: "x",
    parameters: pi.typebox.Type.Object({}),
    execute: async () => ({ content: [] }),
  },
  {},
], {
  get(target, key) {
    if (key === "1") throw new Error("no second entry");
    return Reflect.get(target, key);
  },
});`;

async function load(compiler: CompilerName, name: string, files: Record<string, string>) {
  const root = testCacheDir(`regression-exit-getter-${compiler}-${name}`);
  const tools = join(root, "tools");
  await mkdir(tools, { recursive: true });
  await writeFile(join(tools, "a-good.mjs"), goodModule("good_before"));
  for (const [file, source] of Object.entries(files)) await writeFile(join(tools, file), source);
  await writeFile(join(tools, "z-good.mjs"), goodModule("good_after"));
  return loadCustomTools({ paths: [tools], cwd: root, cacheDir: join(root, "cache"), compiler });
}

describe.each<CompilerName>(["esbuild", "jiti"])(
  "a module whose code throws while the loader reads it (%s)",
  (compiler) => {
    it("is one error diagnostic of that module, and the load goes on", async () => {
      const result = await load(compiler, "throwing-getters", THROWING_GETTERS);
      const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
      expect(errors.map((diagnostic) => [diagnostic.code, diagnostic.path.split("/").at(-1)])).toEqual([
        ["E_INVALID_TOOL", "b-tool-getter.mjs"],
        ["E_INVALID_TOOL", "c-throwing-list.mjs"],
        ["E_NO_FACTORY", "d-exports-getter.cjs"],
      ]);
      expect(errors[1]?.message).toContain("no reads");
      expect(errors[2]?.message).toContain("no default");
      expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["good_before", "good_after"]);
    });

    it("a name claimed before the list's reads threw is free again for the modules after it", async () => {
      const result = await load(compiler, "throwing-after-claim", {
        "b-throwing-after-claim.mjs": THROWING_AFTER_CLAIM,
        "c-same-name.mjs": goodModule("claimed_then_dropped"),
      });
      const refused = result.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
      expect(refused.map((diagnostic) => [diagnostic.code, diagnostic.path.split("/").at(-1)])).toEqual([
        ["E_INVALID_TOOL", "b-throwing-after-claim.mjs"],
      ]);
      expect(refused[0]?.message).toContain("no second entry");
      expect(result.tools.map((loaded) => loaded.tool.name)).toEqual([
        "good_before",
        "claimed_then_dropped",
        "good_after",
      ]);
    });
  },
);
