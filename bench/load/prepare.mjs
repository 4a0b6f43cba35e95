// The two floors, compiled ahead of time with esbuild's API (setup phase, never timed):
// - native/: one `.mjs` per source file (`index.mjs` imports `./helpers.mjs`), no bundling;
// - bundled/: one `.mjs` per tool with its helper folded in.
import { readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { resolvePackage } from "../lib/resolve.mjs";

/** @returns {Promise<typeof import("esbuild")>} */
async function loadEsbuild() {
  const module = await import(pathToFileURL(resolvePackage("esbuild", "loader")).href);
  return module.default ?? module;
}

/**
 * @param {{ root: string; toolsDir: string; entries: string[]; sources: string[] }} generated
 * @returns {Promise<{ nativeEntries: string[]; bundledEntries: string[] }>}
 */
export async function compileFloors(generated) {
  const esbuild = await loadEsbuild();
  const { root, toolsDir, entries, sources } = generated;
  const nativeDir = join(root, "native");
  const bundledDir = join(root, "bundled");
  const common = {
    format: /** @type {const} */ ("esm"),
    platform: /** @type {const} */ ("node"),
    target: "node20",
    logLevel: /** @type {const} */ ("silent"),
  };

  await esbuild.build({
    ...common,
    entryPoints: sources,
    outbase: toolsDir,
    outdir: nativeDir,
    outExtension: { ".js": ".mjs" },
    bundle: false,
  });
  // Without bundling esbuild keeps specifiers as written: point `./helpers.js` (or, in the
  // strippable tools, `./helpers.ts`) at the `.mjs`.
  const nativeFiles = sources.map((source) =>
    join(nativeDir, relative(toolsDir, source)).replace(/\.ts$/, ".mjs"),
  );
  await Promise.all(
    nativeFiles.map(async (file) => {
      const code = await readFile(file, "utf8");
      await writeFile(file, code.replace(/(from\s+["']\.{1,2}\/[^"']+)\.[jt]s(["'])/g, "$1.mjs$2"));
    }),
  );

  await esbuild.build({
    ...common,
    entryPoints: entries.map((entry) => ({ in: entry, out: basename(dirname(entry)) })),
    outdir: bundledDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
  });

  const nativeEntries = entries.map((entry) =>
    join(nativeDir, relative(toolsDir, entry)).replace(/\.ts$/, ".mjs"),
  );
  const bundledEntries = entries.map((entry) => join(bundledDir, `${basename(dirname(entry))}.mjs`));
  return { nativeEntries, bundledEntries };
}
