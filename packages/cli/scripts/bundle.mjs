// Bundles the built CLI (`dist/`, from `tsc -b tsconfig.build.json`) into `dist/bundle/`, the
// `tooldock` executable: a process that runs a command loads a few dozen files instead of the
// ~570 of the package graph. Library users keep importing the packages' own `dist/`.
//
//   node packages/cli/scripts/bundle.mjs     (root `pnpm build` runs it after tsc)
//
// One output folder with code splitting: each package (TypeBox, zod, the SDK, the runtime, the
// loader) is in the bundle once, shared by the CLI, the loader's host-module registry and the
// runtime; every lazily imported command or module stays a chunk of its own, loaded on use.
import { chmod, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { jsoncParserEsm } from "../../loader/scripts/jsonc-parser-esm.mjs";
import { assertBuilt, assertNoDynamicRequire, assertSingleCopies } from "./bundle-checks.mjs";
import { buildInspectPage, INSPECT_PAGE_DIR } from "./bundle-inspect-page.mjs";
import { copyDemoTools, DEMO_TOOLS_DIR } from "./copy-demo-tools.mjs";
import { lazyAjv, writeAjvFile } from "./lazy-ajv.mjs";
import { assertZodReplaced, lazyZod } from "./lazy-zod.mjs";
import { lazyZodLocales, writeLocalesFile } from "./lazy-zod-locales.mjs";
import { ownedExternals } from "./owned-externals.mjs";
import { assertLeanShell, shellImports } from "./shell-imports.mjs";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
/** The loader's built package, where the tool host's entry is taken from. */
const loaderDir = dirname(
  createRequire(join(packageDir, "package.json")).resolve("@tooldock/loader/package.json"),
);
/**
 * Flat: every chunk sits in `dist/bundle/`, so the loader's code (in a chunk there) finds the
 * tool host's entry where its `childScript()` looks, `./child/tool-host-child.js` beside
 * itself (as in the loader's `dist/isolation/`). The tool host shares the chunks of the
 * loader, the runtime, the SDK, TypeBox and zod with the CLI.
 */
const OUT_DIR = "dist/bundle";
const ENTRY_POINTS = {
  tooldock: "dist/bin.js",
  "child/tool-host-child": relative(packageDir, join(loaderDir, "dist/isolation/child/tool-host-child.js")),
};

for (const entry of Object.values(ENTRY_POINTS)) await assertBuilt(packageDir, entry);
await rm(join(packageDir, OUT_DIR), { recursive: true, force: true });
/** @type {{ index?: string }} */
const locales = {};
/** @type {{ loadAjv?: string }} */
const ajv = {};
/** @type {{ replaced: Set<string> }} */
const zod = { replaced: new Set() };
const { metafile } = await build({
  absWorkingDir: packageDir,
  entryPoints: ENTRY_POINTS,
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "[name]-[hash]",
  // Start-up is mostly V8 compiling what is imported (zod alone is ~750 KB unminified): minified,
  // the list command's graph imports in ~15% less time. No source maps: Node would read them
  // for chunks imported after the loader turns source maps on, and tool stack traces never go
  // through the CLI's own code. Names that matter at run time are explicit (`error.name = …`).
  minify: true,
  // Bundle the built JS as it is: without this, the root tsconfig's `paths` would swap the
  // packages' `dist/` for their TypeScript sources.
  tsconfigRaw: {},
  plugins: [
    jsoncParserEsm(),
    ownedExternals(packageDir),
    lazyZodLocales(locales),
    lazyAjv(ajv),
    lazyZod(zod),
    shellImports(packageDir),
  ],
  metafile: true,
  logLevel: "warning",
});
if (locales.index === undefined)
  throw new Error("zod's locales index was not bundled: check lazy-zod-locales.mjs");
await writeLocalesFile(locales.index, join(packageDir, OUT_DIR));
if (ajv.loadAjv === undefined)
  throw new Error("the runtime's load-ajv.js was not bundled: check lazy-ajv.mjs");
await writeAjvFile(ajv.loadAjv, join(packageDir, OUT_DIR));
assertZodReplaced(zod);
await assertSingleCopies(packageDir, metafile);
await assertNoDynamicRequire(packageDir, metafile);
assertLeanShell(metafile, `${OUT_DIR}/tooldock.js`);
await chmod(join(packageDir, OUT_DIR, "tooldock.js"), 0o755);
// The demo's tools ship inside the CLI package (it depends on no private package).
const demoTools = await copyDemoTools(packageDir);
// The page of `tooldock inspect`, served from the package (no CDN).
const pageFiles = await buildInspectPage(packageDir);
process.stderr.write(
  `bundle: ${Object.keys(metafile.outputs).length} files in packages/cli/${OUT_DIR}; ` +
    `${demoTools.length} demo tools in packages/cli/${DEMO_TOOLS_DIR}; ` +
    `${pageFiles.length} inspect page files in packages/cli/${INSPECT_PAGE_DIR}\n`,
);
