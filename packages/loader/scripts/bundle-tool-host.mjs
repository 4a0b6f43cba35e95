// Bundles the tool host's entry (`dist/isolation/child/tool-host-child.js`, from tsc) into one
// file beside it, `tool-host-child.bundle.mjs`: a tool host starts by importing Tooldock, TypeBox
// and zod anew, and one file of ~0.75 MB imports in about half the time of the ~200 files of the
// package graph (measured: 0.63-1.07 s against 1.24-2.07 s to an idle tool host, machine loaded).
// The loader's `childScript()` takes it when the loader itself runs from `dist/`.
//
//   node packages/loader/scripts/bundle-tool-host.mjs   (root `pnpm build` runs it after tsc)
import { access, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { jsoncParserEsm } from "./jsonc-parser-esm.mjs";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = "dist/isolation/child/tool-host-child.js";
const OUT = "dist/isolation/child/tool-host-child.bundle.mjs";

/**
 * The runtime loads Ajv, re2js and ajv-formats' formats with a `require` from its own folder
 * (runtime/src/schema/load-ajv.ts); in the bundle that folder is the loader's, where a strict
 * install (pnpm) has neither. The stand-in requires them from the runtime package the loader
 * depends on, as the unbundled code does.
 */
const LOAD_AJV = /[\\/]runtime[\\/]dist[\\/]schema[\\/]load-ajv\.js$/;
const LOAD_AJV_CONTENTS = [
  'import { createRequire } from "node:module";',
  "let ajv;",
  "let re2;",
  'const fromRuntime = (specifier) => createRequire(createRequire(import.meta.url).resolve("@tooldock/runtime"))(specifier);',
  'export const loadAjv = () => (ajv ??= fromRuntime("ajv"));',
  "let ajv2020;",
  'export const loadAjv2020 = () => (ajv2020 ??= fromRuntime("ajv/dist/2020"));',
  'export const loadRe2 = () => (re2 ??= fromRuntime("re2js"));',
  "let formats;",
  'export const loadFormats = () => (formats ??= fromRuntime("ajv-formats/dist/formats"));',
].join("\n");

/**
 * zod stays out of the tool host's file: its ~490 KB took ~55 ms of every tool host's start
 * (parsed even when esbuild initialises it lazily), and most tools never use it. It goes to
 * `zod/` beside it, one small entry per specifier tools import (`zod.mjs`, `zod-v4.mjs`, …) and
 * the chunks they share: a tool's `import "zod"` reads them on first use, and so do the two
 * synchronous loaders (`loadZodCore` in the runtime, `loadZod` for `pi.zod`), through
 * `require` of the same entry where Node can require an ES module, so there is one copy.
 */
const ZOD_DIR = "dist/isolation/child/zod";
const ZOD_ENTRIES = { zod: "zod", "zod-v4": "zod/v4", "zod-v4-core": "zod/v4/core", "zod-mini": "zod/mini" };
const ZOD_FILE = Object.fromEntries(
  Object.entries(ZOD_ENTRIES).map(([file, specifier]) => [specifier, file]),
);
/**
 * The stand-ins' code: `require` of the entry in `zod/` where Node can require an ES module
 * (falling back, as the unbundled code does, when an import of it is under way), else zod's
 * CommonJS build from the loader's own dependencies.
 */
const REQUIRE_ZOD = [
  'import { createRequire } from "node:module";',
  'import { fileURLToPath } from "node:url";',
  `const FILES = ${JSON.stringify(ZOD_FILE)};`,
  "const require = createRequire(import.meta.url);",
  "const requireZod = (specifier) => {",
  "  if (process.features.require_module === true) {",
  "    try {",
  '      return require(fileURLToPath(new URL("./zod/" + FILES[specifier] + ".mjs", import.meta.url)));',
  "    } catch {}",
  "  }",
  "  return require(specifier);",
  "};",
].join("\n");
const LAZY_ZOD = [
  {
    file: /[\\/]runtime[\\/]dist[\\/]schema[\\/]load-zod-core\.js$/,
    contents: `${REQUIRE_ZOD}\nlet core;\nexport const loadZodCore = () => (core ??= requireZod("zod/v4/core"));`,
  },
  {
    file: /[\\/]loader[\\/]dist[\\/]compile[\\/]load-zod\.js$/,
    contents: `${REQUIRE_ZOD}\nexport const loadZodModule = requireZod;`,
  },
];

try {
  await access(`${packageDir}/${ENTRY}`);
} catch {
  throw new Error(`${ENTRY} is missing: run tsc -b tsconfig.build.json first`);
}
await rm(`${packageDir}/${ZOD_DIR}`, { recursive: true, force: true });
await build({
  absWorkingDir: packageDir,
  entryPoints: Object.entries(ZOD_ENTRIES).map(([out, specifier]) => ({ in: specifier, out })),
  outdir: ZOD_DIR,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  chunkNames: "[name]-[hash]",
  logLevel: "warning",
});
let ajvReplaced = false;
const zodReplaced = new Set();
await build({
  absWorkingDir: packageDir,
  entryPoints: [ENTRY],
  outfile: OUT,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  // Loaded from the loader's own dependencies at run time: a native binary, and a compiler the
  // tool host imports only when it compiles.
  external: ["esbuild", "jiti", "oxc-transform"],
  // Bundle the built JS as it is (the root tsconfig's `paths` point at the TypeScript sources).
  tsconfigRaw: {},
  plugins: [
    jsoncParserEsm(),
    {
      name: "load-ajv-from-runtime",
      setup(context) {
        context.onLoad({ filter: LOAD_AJV }, () => {
          ajvReplaced = true;
          return { contents: LOAD_AJV_CONTENTS, loader: "js" };
        });
      },
    },
    {
      name: "lazy-zod",
      setup(context) {
        for (const { file, contents } of LAZY_ZOD)
          context.onLoad({ filter: file }, () => {
            zodReplaced.add(file);
            return { contents, loader: "js" };
          });
        context.onResolve({ filter: /^zod(\/|$)/ }, (args) => {
          const file = ZOD_FILE[args.path];
          if (file === undefined) throw new Error(`zod specifier without an entry in zod/: ${args.path}`);
          return { path: `./zod/${file}.mjs`, external: true };
        });
      },
    },
  ],
  logLevel: "warning",
});
if (zodReplaced.size !== LAZY_ZOD.length)
  throw new Error("a lazy zod module was not bundled: check LAZY_ZOD");
if (!ajvReplaced) throw new Error("the runtime's load-ajv.js was not bundled: check LOAD_AJV");
