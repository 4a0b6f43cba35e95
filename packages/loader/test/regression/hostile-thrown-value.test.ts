import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { testCacheDir } from "../helpers.js";

// Bug: a module that threw a value on which every operation throws (a Proxy whose traps throw,
// so even `instanceof` fails) made loadCustomTools reject instead of reporting a diagnostic and
// going on with the next module.
const HOSTILE = `const hostile = new Proxy({}, {
  get() { throw new Error("no get"); },
  getPrototypeOf() { throw new Error("no prototype"); },
  has() { throw new Error("no has"); },
});`;

const CANARY = `export default (pi) => ({
  name: "canary",
  label: "Canary",
  description: "Loads beside the hostile modules.",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
});`;

describe.each<CompilerName>(["esbuild", "jiti"])(
  "a module that throws a value no operation can inspect (%s)",
  (compiler) => {
    it("becomes a diagnostic and the next module still loads", async () => {
      const root = testCacheDir(`regression-hostile-throw-${compiler}`);
      const tools = join(root, "tools");
      await mkdir(tools, { recursive: true });
      await writeFile(join(tools, "a-import.mjs"), `${HOSTILE}\nthrow hostile;\n`);
      await writeFile(join(tools, "b-factory.mjs"), `${HOSTILE}\nexport default () => { throw hostile; };\n`);
      await writeFile(join(tools, "c-canary.mjs"), CANARY);
      const before = process.exit;
      const result = await loadCustomTools({
        paths: [tools],
        cwd: root,
        cacheDir: join(root, "cache"),
        compiler,
      });
      expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
        "E_IMPORT",
        "E_FACTORY_THROW",
      ]);
      expect(result.tools.map((loaded) => loaded.tool.name)).toEqual(["canary"]);
      expect(process.exit).toBe(before);
    });
  },
);
