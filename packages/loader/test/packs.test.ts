import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCustomTools } from "../src/index.js";
import { fakeContext, testCacheDir } from "./helpers.js";

// Tool files of one folder, in discovery order. Their names were checked to fall into one
// pack (pack boundaries hash the last two path segments, so they do not depend on the folder).
const TOOLS: Record<string, string> = {
  "a-paths.ts": `import path, { join } from "node:path";
import * as os from "node:os";
export default (pi: any) => ({
  name: "paths", label: "Paths", description: "Joins paths.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: join("a", path.basename("/x/b")) + typeof os.cpus }] };
  },
});
`,
  "b-waits.ts": `const ready = await Promise.resolve("waited");
export default (pi: any) => ({
  name: "waits", label: "Waits", description: "Used top-level await.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: ready }] }; },
});
`,
  "c-counts.ts": `const state = globalThis as { __packLoads?: number };
state.__packLoads = (state.__packLoads ?? 0) + 1;
export default (pi: any) => ({
  name: "counts", label: "Counts", description: "Counts how often its top level ran.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: String(state.__packLoads) }] }; },
});
`,
  "d-throws.ts": `interface Reason { text: string }
export default (pi: any) => ({
  name: "throws", label: "Throws", description: "Throws when called.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    const reason: Reason = { text: "thrown from a packed tool" };
    throw new Error(reason.text);
  },
});
`,
  "e-package.ts": `import { value } from "fixture-pkg";
export default (pi: any) => ({
  name: "package", label: "Package", description: "Imports a package from node_modules.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: value }] }; },
});
`,
};

async function toolFolder(label: string): Promise<{ dir: string; cacheDir: string }> {
  const cacheDir = testCacheDir(label);
  const dir = join(cacheDir, "..", `${label}-tools-${Math.random().toString(36).slice(2, 8)}`);
  await mkdir(join(dir, "node_modules/fixture-pkg"), { recursive: true });
  // Its own tsconfig, so an edit of the repository's config during the run changes no key.
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  await writeFile(
    join(dir, "node_modules/fixture-pkg/package.json"),
    JSON.stringify({ name: "fixture-pkg", type: "module", exports: "./index.js" }),
  );
  await writeFile(join(dir, "node_modules/fixture-pkg/index.js"), 'export const value = "from a package";\n');
  for (const [name, source] of Object.entries(TOOLS)) await writeFile(join(dir, name), source);
  return { dir, cacheDir };
}

async function load(dir: string, cacheDir: string) {
  const result = await loadCustomTools({ paths: [dir], cwd: dir, cacheDir });
  const call = async (name: string) => {
    const tool = result.tools.find((loaded) => loaded.tool.name === name)?.tool;
    const called = await tool?.execute("1", {} as never, undefined, fakeContext(dir));
    return called?.content[0]?.type === "text" ? called.content[0].text : undefined;
  };
  return { ...result, call };
}

async function packFiles(cacheDir: string): Promise<string[]> {
  const names = await readdir(join(cacheDir, "bundles"));
  return names.filter((name) => name.startsWith("pack-")).sort();
}

describe("packs: many tool bundles in one file", () => {
  it("loads every tool from one pack, and imports a bundle with a package import on its own", async () => {
    const { dir, cacheDir } = await toolFolder("packs-basic");
    for (const round of ["cold", "warm"]) {
      const { tools, diagnostics, call } = await load(dir, cacheDir);
      expect(diagnostics, round).toEqual([]);
      expect(tools.map((loaded) => loaded.tool.name)).toEqual([
        "paths",
        "waits",
        "counts",
        "throws",
        "package",
      ]);
      expect(await call("paths")).toBe("a/bfunction");
      expect(await call("waits")).toBe("waited");
      expect(await call("package")).toBe("from a package");
    }
    const packs = await packFiles(cacheDir);
    expect(packs).toHaveLength(1);
    const pack = await readFile(join(cacheDir, "bundles", packs[0] as string), "utf8");
    expect(pack.match(/^async function \(\) \{/gm)).toHaveLength(4);
    expect(pack).toMatch(/^null, \/\/ ".*e-package\.ts": imported on its own$/m);
  });

  it("runs a packed module's top level at every load, like a fresh import", async () => {
    const { dir, cacheDir } = await toolFolder("packs-state");
    const state = globalThis as { __packLoads?: number };
    state.__packLoads = 0;
    await load(dir, cacheDir);
    const { call } = await load(dir, cacheDir);
    expect(await call("counts")).toBe("2");
  });

  it("names the .ts line of a packed tool in stack traces", async () => {
    const { dir, cacheDir } = await toolFolder("packs-stack");
    await load(dir, cacheDir);
    const { tools } = await load(dir, cacheDir);
    // vitest installs its own Error.prepareStackTrace; a host uses Node's, which applies maps.
    const vitestPrepare = Error.prepareStackTrace;
    Reflect.deleteProperty(Error, "prepareStackTrace");
    let stack = "";
    try {
      const tool = tools.find((loaded) => loaded.tool.name === "throws")?.tool;
      const error = await tool
        ?.execute("1", {} as never, undefined, fakeContext(dir))
        .catch((thrown) => thrown);
      stack = String((error as Error).stack);
    } finally {
      if (vitestPrepare !== undefined) Error.prepareStackTrace = vitestPrepare;
    }
    expect(stack).toContain(`${join(dir, "d-throws.ts")}:7:`);
  });

  it("keeps the guards per module: an exit or a tampering inside a pack names its own module", async () => {
    const { dir, cacheDir } = await toolFolder("packs-guards");
    await writeFile(join(dir, "b-waits.ts"), "process.exit(3);\nexport default () => [];\n");
    await writeFile(
      join(dir, "c-counts.ts"),
      `Object.defineProperty(Array.prototype, "packPolluted", { value: 1, enumerable: true, configurable: true, writable: true });
export default (pi: any) => ({ name: "counts", label: "C", description: "d", parameters: pi.typebox.Type.Object({}), async execute() { return { content: [] }; } });
`,
    );
    for (const round of ["cold", "warm"]) {
      const { tools, diagnostics } = await load(dir, cacheDir);
      expect(
        tools.map((loaded) => loaded.tool.name),
        round,
      ).toEqual(["paths", "counts", "throws", "package"]);
      expect(
        diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path]),
        round,
      ).toEqual([
        ["E_PROCESS_EXIT", join(dir, "b-waits.ts")],
        ["W_GLOBAL_TAMPERING", join(dir, "c-counts.ts")],
      ]);
      expect(Object.hasOwn(Array.prototype, "packPolluted")).toBe(false);
    }
    expect(await packFiles(cacheDir)).toHaveLength(1);
  });

  it("writes a new pack after an edit and removes the one it replaces", async () => {
    const { dir, cacheDir } = await toolFolder("packs-edit");
    await load(dir, cacheDir);
    const before = await packFiles(cacheDir);
    await writeFile(join(dir, "b-waits.ts"), (TOOLS["b-waits.ts"] as string).replace('"waited"', '"edited"'));
    const { call } = await load(dir, cacheDir);
    expect(await call("waits")).toBe("edited");
    const after = await packFiles(cacheDir);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });

  it("still loads every tool, each on its own, when the pack file is damaged", async () => {
    const { dir, cacheDir } = await toolFolder("packs-damaged");
    await load(dir, cacheDir);
    const [pack] = await packFiles(cacheDir);
    await writeFile(join(cacheDir, "bundles", pack as string), "this is not JavaScript {");
    const { tools, diagnostics, call } = await load(dir, cacheDir);
    expect(diagnostics).toEqual([]);
    expect(tools).toHaveLength(5);
    expect(await call("waits")).toBe("waited");
  });
});
