// Copies the example tools `tooldock demo` runs on into `dist/demo-tools/` of the CLI package,
// so the published CLI carries them and depends on no private package. The sources stay in
// packages/examples/tools (type-checked and tested there); this copy is a build output.
//
//   node packages/cli/scripts/copy-demo-tools.mjs     (scripts/bundle.mjs runs it)
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder, inside the CLI package, the demo loads its tools from (see src/demo/demo-tools.ts). */
export const DEMO_TOOLS_DIR = "dist/demo-tools";

/**
 * Writes `dist/demo-tools/`: the example tool modules listed in the "tooldock" field of
 * packages/examples/package.json, and a package.json that lists them in the same order.
 *
 * @param {string} packageDir the CLI package
 * @returns {Promise<string[]>} the copied file names
 */
export async function copyDemoTools(packageDir) {
  const examplesDir = join(packageDir, "..", "examples");
  const manifest = JSON.parse(await readFile(join(examplesDir, "package.json"), "utf8"));
  /** @type {unknown} */
  const tools = manifest.tooldock?.tools;
  if (!Array.isArray(tools) || tools.some((tool) => typeof tool !== "string")) {
    throw new Error(`packages/examples/package.json has no "tooldock": { "tools": [...] } list to copy.`);
  }
  const outDir = join(packageDir, DEMO_TOOLS_DIR);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, "tools"), { recursive: true });
  const names = [];
  for (const tool of /** @type {string[]} */ (tools)) {
    const name = basename(tool);
    await copyFile(join(examplesDir, tool), join(outDir, "tools", name));
    names.push(name);
  }
  const demoManifest = {
    name: "tooldock-demo-tools",
    private: true,
    type: "module",
    description:
      "The example tools of `tooldock demo`, copied from the Tooldock repo's packages/examples/tools.",
    tooldock: { tools: names.map((name) => `./tools/${name}`) },
  };
  await writeFile(join(outDir, "package.json"), `${JSON.stringify(demoManifest, null, 2)}\n`);
  return names;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = await copyDemoTools(fileURLToPath(new URL("..", import.meta.url)));
  process.stderr.write(`demo tools: ${names.length} modules in packages/cli/${DEMO_TOOLS_DIR}\n`);
}
