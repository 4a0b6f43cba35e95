// The `tooldock` executable is the esbuild bundle in dist/bundle/ (scripts/bundle.mjs): what a
// user runs must work from it alone, with the one TypeBox and the one zod it holds serving the
// CLI, the tools (`pi.typebox`, `pi.zod`) and the runtime's validators alike.
import { readFileSync, realpathSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, cliBin, EXAMPLE_TOOL_NAMES, examplesDir, runCli, tempDir } from "./cli-process.js";

const recordImports = pathToFileURL(
  fileURLToPath(new URL("./fixtures/record-imports/record-imports.mjs", import.meta.url)),
).href;
const cliPackageDir = fileURLToPath(new URL("..", import.meta.url));
const bundleDir = dirname(cliBin);

beforeAll(assertBuilt);

describe("the tooldock executable", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let cacheDir: string;
  let importsFile: string;

  beforeEach(async () => {
    dir = await tempDir({ "imports.txt": "" });
    cacheDir = join(realpathSync(dir.path), "cache");
    importsFile = join(dir.path, "imports.txt");
  });

  afterEach(() => dir.remove());

  /** Runs the CLI (and any child it spawns) recording every module it imports. */
  const runRecorded = (args: string[]) =>
    runCli(args, {
      env: {
        TOOLDOCK_CACHE_DIR: cacheDir,
        TOOLDOCK_TEST_IMPORTS_FILE: importsFile,
        // The recorder's `module.register` is deprecated from Node 26 (DEP0205); its in-thread
        // successor sees `require()` too, which the recorder tells apart by its own wrapper.
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${recordImports} --disable-warning=DEP0205`,
      },
    });

  /** The files the recorded runs imported, outside the bundle and the compile cache. */
  const importedElsewhere = async () => {
    const urls = (await readFile(importsFile, "utf8")).split("\n").filter((url) => url.startsWith("file:"));
    expect(urls.length).toBeGreaterThan(0);
    return urls
      .map((url) => realpathSync(fileURLToPath(url)))
      .filter((path) => !path.startsWith(bundleDir + sep) && !path.startsWith(cacheDir + sep))
      .filter((path) => path !== fileURLToPath(recordImports));
  };

  /** The bundle's chunks the recorded runs imported. */
  const importedChunks = async () =>
    (await readFile(importsFile, "utf8"))
      .split("\n")
      .filter((url) => url.startsWith("file:") && url.endsWith(".js"))
      .map((url) => realpathSync(fileURLToPath(url)))
      .filter((path) => path.startsWith(bundleDir + sep));

  /**
   * The packages whose code `chunks` hold: minified output keeps no file names, so this looks
   * for a string each package contains and no other has.
   */
  const bundledPackagesOf = async (chunks: string[]) => {
    const markers: Record<string, string> = {
      "@tooldock/runtime": "Tooldock takes zod v4",
      "@sinclair/typebox": "TypeBoxError",
      zod: "$ZodType",
      ajv: "MissingRefError",
    };
    const found = new Set<string>();
    for (const chunk of chunks) {
      const code = await readFile(chunk, "utf8");
      for (const [name, marker] of Object.entries(markers)) if (code.includes(marker)) found.add(name);
    }
    return [...found];
  };

  it("is the bundle in dist/bundle/, a node script that prints the package version", async () => {
    const manifest = JSON.parse(readFileSync(join(cliPackageDir, "package.json"), "utf8"));
    expect(cliBin).toBe(join(cliPackageDir, "dist", "bundle", "tooldock.js"));
    expect((await readFile(cliBin, "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");

    const run = await runCli(["--version"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout.trim()).toBe(manifest.version);
  });

  it("lists the examples importing nothing but its bundle: no second TypeBox, zod or Tooldock package", async () => {
    const run = await runRecorded(["list", examplesDir, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.tools.map((tool: { name: string }) => tool.name)).toEqual(EXAMPLE_TOOL_NAMES);
    // text_stats builds its parameters with pi.zod, the others with pi.typebox.
    const textStats = report.tools.find((tool: { name: string }) => tool.name === "text_stats");
    expect(textStats.parameters).toMatchObject({ type: "object", properties: { path: { type: "string" } } });

    expect(await importedElsewhere()).toEqual([]);
  });

  it("starts --version and --help from the CLI shell alone: no Tooldock package, TypeBox or zod", async () => {
    for (const args of [["--version"], ["--help"], ["list", "--help"]]) {
      await writeFile(importsFile, "");
      const run = await runRecorded(args);
      expect(run).toMatchObject({ code: 0, stderr: "" });
      const chunks = await importedChunks();
      expect(chunks.length, args.join(" ")).toBeGreaterThan(0);
      // Only the entry's shell: the commands' chunks (which hold the loader, the runtime,
      // TypeBox and zod) are not imported.
      const bundled = await bundledPackagesOf(chunks);
      expect(bundled, args.join(" ")).not.toContain("@tooldock/runtime");
      expect(bundled, args.join(" ")).not.toContain("@sinclair/typebox");
      expect(bundled, args.join(" ")).not.toContain("zod");
    }
  });

  it("lists the examples without loading Ajv, which only a schema TypeBox cannot compile needs", async () => {
    const run = await runRecorded(["list", examplesDir]);
    expect(run.code).toBe(0);
    const imports = await readFile(importsFile, "utf8");
    expect(imports).not.toContain("ajv.cjs");
    const bundled = await bundledPackagesOf(await importedChunks());
    expect(bundled).not.toContain("ajv");
    // The markers find what a command does load (so their absence above means something).
    expect(bundled).toEqual(expect.arrayContaining(["@tooldock/runtime", "@sinclair/typebox", "zod"]));
    expect(await bundledPackagesOf([join(bundleDir, "ajv.cjs")])).toEqual(["ajv"]);
  });

  it("validates a schema only Ajv can (Type.Unsafe) with the Ajv beside the bundle, loaded then", async () => {
    const tools = await tempDir({
      "color.ts": `export default (pi: any) => ({
  name: "color", label: "Color", description: "Echoes a colour.",
  parameters: pi.typebox.Type.Object({ color: pi.typebox.Type.Unsafe({ type: "string", enum: ["red", "blue"] }) }),
  async execute(_id: string, params: { color: string }) { return { content: [{ type: "text", text: params.color }] }; },
});
`,
    });
    try {
      const bad = await runRecorded(["call", "color", tools.path, "--args", '{"color": "green"}']);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain('/color: Expected one of "red", "blue"');
      const good = await runRecorded(["call", "color", tools.path, "--args", '{"color": "red"}']);
      expect(good).toMatchObject({ code: 0 });
      expect(good.stdout).toContain("red");
      expect(await readFile(importsFile, "utf8")).toContain(
        `require ${pathToFileURL(join(bundleDir, "ajv.cjs")).href}`,
      );
      expect(await importedElsewhere()).toEqual([]);
    } finally {
      await tools.remove();
    }
  });

  it("checks a pattern with the re2js and a format with the ajv-formats beside the bundle, in-process and in the tool host", async () => {
    const tools = await tempDir({
      "tag.ts": `export default (pi: any) => ({
  name: "tag", label: "Tag", description: "Echoes a tag.",
  parameters: pi.typebox.Type.Object({ tag: pi.typebox.Type.String({ pattern: "^(a+)+$" }) }),
  async execute(_id: string, params: { tag: string }) { return { content: [{ type: "text", text: params.tag }] }; },
});
`,
      "mail.ts": `export default (pi: any) => ({
  name: "mail", label: "Mail", description: "Echoes an address.",
  parameters: pi.typebox.Type.Object({ to: pi.typebox.Type.String({ format: "email" }) }),
  async execute(_id: string, params: { to: string }) { return { content: [{ type: "text", text: params.to }] }; },
});
`,
    });
    try {
      const call = (tool: string, args: unknown, isolate: string[] = []) =>
        runRecorded(["call", tool, tools.path, ...isolate, "--args", JSON.stringify(args)]);
      // Tool, arguments, exit code, and what the refusal says.
      const cases: Array<[string, unknown, number, string?]> = [
        ["tag", { tag: `${"a".repeat(64)}!` }, 1, '/tag: Must match pattern "^(a+)+$"'],
        ["mail", { to: "nobody" }, 1, '/to: Must match format "email"'],
        ["mail", { to: "a@b.org" }, 0],
      ];
      for (const isolate of [[], ["--isolate"]]) {
        for (const [tool, args, code, refusal] of cases) {
          const run = await call(tool, args, isolate);
          expect(run.code).toBe(code);
          if (refusal !== undefined) expect(run.stdout).toContain(refusal);
        }
      }
      expect(await call("tag", { tag: "aaa" })).toMatchObject({ code: 0 });
      const required = await readFile(importsFile, "utf8");
      expect(required).toContain(`require ${pathToFileURL(join(bundleDir, "re2js.cjs")).href}`);
      expect(required).toContain(`require ${pathToFileURL(join(bundleDir, "ajv-formats.cjs")).href}`);
      expect(await importedElsewhere()).toEqual([]);
    } finally {
      await tools.remove();
    }
  });

  it("validates pi.typebox and pi.zod parameters with the runtime it bundles", async () => {
    const typebox = await runRecorded(["call", "note_add", examplesDir, "--args", "{}"]);
    expect(typebox.code).toBe(1);
    expect(typebox.stdout).toContain(
      'Invalid arguments for tool "note_add":\n  - /text: Expected required property',
    );

    const zod = await runRecorded(["call", "text_stats", examplesDir, "--args", '{"path": 5}']);
    expect(zod.code).toBe(1);
    expect(zod.stdout).toContain("- /path: Invalid input: expected string, received number");

    expect(await importedElsewhere()).toEqual([]);
  });

  it("keeps every zod locale, loaded from beside the bundle on first use", async () => {
    // Not in the chunks a command imports, only in the file the locales load from (an
    // Italian message: ASCII, so the minifier leaves it as written).
    const chunks = (await readdir(bundleDir)).filter((name) => name.endsWith(".js"));
    for (const chunk of chunks)
      expect(await readFile(join(bundleDir, chunk), "utf8"), chunk).not.toContain("Troppo grande");
    expect(await readFile(join(bundleDir, "zod-locales.cjs"), "utf8")).toContain("Troppo grande");
    const tools = await tempDir({
      "german.ts": `export default (pi: any) => {
  pi.zod.config(pi.zod.locales.de());
  return {
    name: "german", label: "German", description: "Reports invalid arguments in German.",
    parameters: pi.zod.object({ count: pi.zod.number() }),
    async execute() { return { content: [{ type: "text", text: "ok" }] }; },
  };
};
`,
    });
    try {
      const run = await runRecorded(["call", "german", tools.path, "--args", '{"count": "x"}']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("- /count: Ungültige Eingabe");
      expect(await importedElsewhere()).toEqual([]);
    } finally {
      await tools.remove();
    }
  });

  it("runs the tool host of validate (isolated by default) from the bundle's child/tool-host-child.js", async () => {
    // The tool host gets none of the CLI's environment (NODE_OPTIONS included), so the module
    // says which script its process runs.
    const module = join(dir.path, "entry.mjs");
    await writeFile(
      module,
      `export default (pi) => ({ name: "entry", label: "Entry", description: process.argv[1],
  parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) });\n`,
    );
    const run = await runRecorded(["validate", module, "--format", "json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { tools: Array<{ description: string }> };
    expect(report.tools.map((tool) => realpathSync(tool.description))).toEqual([
      join(bundleDir, "child", "tool-host-child.js"),
    ]);
    expect(await importedElsewhere()).toEqual([]);
  });
});
