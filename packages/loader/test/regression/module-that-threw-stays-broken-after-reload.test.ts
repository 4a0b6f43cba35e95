import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../../src/index.js";
import { fakeContext, testCacheDir } from "../helpers.js";

// Bug: with esbuild, a module whose top level threw (its config file missing) threw the same
// error on every later load in the process, even after the user fixed the cause and reloaded:
// the loader kept the failed evaluation as Node keeps a failed ES module, and the pack's lazy
// init of the module had run already. Only an edit of the module itself, or a restart of the
// host, brought the tool back. Now a module whose evaluation threw is evaluated afresh by the
// next load; one that loaded keeps its module state, as before.

/** A tool that reads `config.json` beside it at its top level, and throws when it is missing. */
const configured = (name: string) => `import { readFileSync } from "node:fs";
const config = JSON.parse(readFileSync(new URL("./config.json", import.meta.url), "utf8"));
let loads = 0;
export default (pi: any) => {
  loads += 1;
  return {
    name: "${name}",
    label: "Configured",
    description: "Answers with its configured greeting.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text" as const, text: \`\${config.greeting} (factory run \${loads})\` }] };
    },
  };
};
`;

/** A tool that counts its loads in its module state. */
const counting = (name: string) => `let loads = 0;
export default (pi: any) => {
  loads += 1;
  return {
    name: "${name}",
    label: "Counting",
    description: "Says how often its factory ran in this module instance.",
    parameters: pi.typebox.Type.Object({}),
    async execute() {
      return { content: [{ type: "text" as const, text: \`factory run \${loads}\` }] };
    },
  };
};
`;

async function project(label: string, files: Record<string, string>): Promise<string> {
  // Not under node_modules, where the test caches are: a package there keeps its own location.
  const dir = await mkdtemp(join(tmpdir(), `${label}-`));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

async function answers(dir: string, compiler: CompilerName, cacheDir: string) {
  const { tools, diagnostics } = await loadCustomTools({
    paths: [join(dir, "tools")],
    cwd: dir,
    compiler,
    cacheDir,
  });
  const texts: Record<string, string | undefined> = {};
  for (const { tool } of tools) {
    const result = await tool.execute("1", {} as never, undefined, fakeContext(dir));
    texts[tool.name] = result.content[0]?.type === "text" ? result.content[0].text : undefined;
  }
  return { texts, codes: diagnostics.map((diagnostic) => diagnostic.code) };
}

describe.each<CompilerName>(["esbuild", "jiti"])(
  "a module whose top level threw, reloaded (%s)",
  (compiler) => {
    it("loads once its cause is fixed, alone in its pack", async () => {
      const dir = await project(`threw-alone-${compiler}`, {
        "tools/configured.ts": configured("configured"),
      });
      const cacheDir = testCacheDir(`threw-alone-${compiler}`);
      expect(await answers(dir, compiler, cacheDir)).toEqual({ texts: {}, codes: ["E_IMPORT"] });
      expect(await answers(dir, compiler, cacheDir)).toEqual({ texts: {}, codes: ["E_IMPORT"] });
      await writeFile(join(dir, "tools/config.json"), JSON.stringify({ greeting: "hello" }));
      expect(await answers(dir, compiler, cacheDir)).toEqual({
        texts: { configured: "hello (factory run 1)" },
        codes: [],
      });
      // Loaded now: kept for the process like any module that loaded (its factory runs again).
      expect((await answers(dir, compiler, cacheDir)).texts.configured).toBe(
        compiler === "esbuild" ? "hello (factory run 2)" : "hello (factory run 1)",
      );
      // And a cause that comes back is that module's own business now, as for any loaded module.
      await rm(join(dir, "tools/config.json"));
      expect((await answers(dir, compiler, cacheDir)).codes).toEqual(
        compiler === "esbuild" ? [] : ["E_IMPORT"],
      );
    });

    it("loads once its cause is fixed when its pack is imported as a module (it imports a package)", async () => {
      // A pack that imports a package has no script: Node imports it, and keeps what it imported.
      const dir = await project(`threw-package-${compiler}`, {
        "tools/node_modules/greeting-lib/package.json": JSON.stringify({
          name: "greeting-lib",
          type: "module",
          exports: "./index.js",
        }),
        "tools/node_modules/greeting-lib/index.js": 'export const prefix = "lib: ";\n',
        "tools/configured.ts": `import { prefix } from "greeting-lib";\n${configured("configured").replace(
          "text: `${config.greeting}",
          "text: `${prefix}${config.greeting}",
        )}`,
      });
      const cacheDir = testCacheDir(`threw-package-${compiler}`);
      expect(await answers(dir, compiler, cacheDir)).toEqual({ texts: {}, codes: ["E_IMPORT"] });
      expect(await answers(dir, compiler, cacheDir)).toEqual({ texts: {}, codes: ["E_IMPORT"] });
      await writeFile(join(dir, "tools/config.json"), JSON.stringify({ greeting: "hello" }));
      expect(await answers(dir, compiler, cacheDir)).toEqual({
        texts: { configured: "lib: hello (factory run 1)" },
        codes: [],
      });
    });

    it("loads once its cause is fixed, beside modules that keep their state", async () => {
      const files: Record<string, string> = {};
      // Enough modules for shared packs, the failing one among them.
      for (let index = 0; index < 8; index += 1)
        files[`tools/t${index}/index.ts`] =
          index === 4 ? configured(`tool_${index}`) : counting(`tool_${index}`);
      const dir = await project(`threw-shared-${compiler}`, files);
      const cacheDir = testCacheDir(`threw-shared-${compiler}`);
      const first = await answers(dir, compiler, cacheDir);
      expect(first.codes).toEqual(["E_IMPORT"]);
      expect(Object.keys(first.texts)).toHaveLength(7);
      expect((await answers(dir, compiler, cacheDir)).codes).toEqual(["E_IMPORT"]);
      await writeFile(join(dir, "tools/t4/config.json"), JSON.stringify({ greeting: "hi" }));
      const fixed = await answers(dir, compiler, cacheDir);
      expect(fixed.codes).toEqual([]);
      expect(fixed.texts.tool_4).toBe("hi (factory run 1)");
      // The others were not evaluated again: their module state is the first load's.
      expect(fixed.texts.tool_0).toBe(compiler === "esbuild" ? "factory run 3" : "factory run 1");
      expect(fixed.texts.tool_7).toBe(compiler === "esbuild" ? "factory run 3" : "factory run 1");
    });
  },
);
