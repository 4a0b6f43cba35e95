import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { goodModule, testCacheDir } from "../helpers.js";

// Bug: the exit guard covered a module's import and factory, but the loader runs the module's
// code again while it reads what the module produced: a getter on a tool, a Proxy trap of
// the list the factory returned, a getter on `module.exports.default`. An exit call made
// there came from no guarded step, so it went through: `process.reallyExit(0)` in a `name`
// getter ended `tooldock validate` with exit code 0 and no report. And a returned Proxy
// list whose `length` trap throws made the whole load reject ("internal error").
const EXITS = ["process.exit(0)", "process.reallyExit(0)"] as const;

function hostileModules(exit: string): Record<string, string> {
  return {
    "b-tool-getter.mjs": `export default (pi) => ({
  get name() { ${exit}; return "getter_tool"; },
  label: "x",
  description: "x",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
});`,
    "c-proxy-list.mjs": `export default () => new Proxy([], {
  get(target, key) {
    if (key === "length") ${exit};
    return Reflect.get(target, key);
  },
});`,
    "d-exports-getter.cjs": `module.exports = { get default() { ${exit}; return () => []; } };`,
  };
}

const THROWING_LIST = `export default () => new Proxy([], {
  get(target, key) {
    if (key === "length") throw new Error("no reads");
    return Reflect.get(target, key);
  },
});`;

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

let calls: string[] = [];
const saved = { exit: process.exit, reallyExit: (process as unknown as { reallyExit: unknown }).reallyExit };

beforeEach(() => {
  calls = [];
  // Stand-ins for the host's own methods, so a call that gets through is seen, not obeyed.
  process.exit = ((code?: number) => {
    calls.push(`exit(${code})`);
    throw new Error("the host's process.exit was reached");
  }) as typeof process.exit;
  (process as unknown as { reallyExit: unknown }).reallyExit = (code?: number) => {
    calls.push(`reallyExit(${code})`);
    throw new Error("the host's process.reallyExit was reached");
  };
});

afterEach(() => {
  process.exit = saved.exit;
  (process as unknown as { reallyExit: unknown }).reallyExit = saved.reallyExit;
});

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
  "a module that exits while the loader reads it (%s)",
  (compiler) => {
    it.each(EXITS)("%s is blocked and reported as E_PROCESS_EXIT for each module", async (exit) => {
      const result = await load(compiler, exit.replace(/\W/g, ""), hostileModules(exit));
      expect(calls).toEqual([]);
      const exits = result.diagnostics.filter((diagnostic) => diagnostic.code === "E_PROCESS_EXIT");
      expect(exits.map((diagnostic) => diagnostic.path.split("/").at(-1)).sort()).toEqual([
        "b-tool-getter.mjs",
        "c-proxy-list.mjs",
        "d-exports-getter.cjs",
      ]);
      for (const diagnostic of exits) expect(diagnostic.message).toContain(exit);
      expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["good_before", "good_after"]);
    });

    it("a returned list whose reads throw is an E_INVALID_TOOL, and the load goes on", async () => {
      const result = await load(compiler, "throwing-list", { "b-throwing-list.mjs": THROWING_LIST });
      const refused = result.diagnostics.filter((diagnostic) =>
        diagnostic.path.endsWith("b-throwing-list.mjs"),
      );
      expect(refused.map((diagnostic) => diagnostic.code)).toEqual(["E_INVALID_TOOL"]);
      expect(refused[0]?.message).toContain("no reads");
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
