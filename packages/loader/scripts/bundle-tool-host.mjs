// Bundles the tool host's entry (`dist/isolation/child/tool-host-child.js`, from tsc) into one
// file beside it, `tool-host-child.bundle.mjs`: a tool host starts by importing Tooldock, TypeBox
// and zod anew, and one file of ~0.75 MB imports in about half the time of the ~200 files of the
// package graph (measured: 0.63-1.07 s against 1.24-2.07 s to an idle tool host, machine loaded).
// The loader's `childScript()` takes it when the loader itself runs from `dist/`.
//
//   node packages/loader/scripts/bundle-tool-host.mjs   (root `pnpm build` runs it after tsc)
import { access } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = "dist/isolation/child/tool-host-child.js";
const OUT = "dist/isolation/child/tool-host-child.bundle.mjs";

/**
 * The runtime loads Ajv with a `require` from its own folder (runtime/src/schema/load-ajv.ts);
 * in the bundle that folder is the loader's, where a strict install (pnpm) has no Ajv. The
 * stand-in requires it from the runtime package the loader depends on, as the unbundled code does.
 */
const LOAD_AJV = /[\\/]runtime[\\/]dist[\\/]schema[\\/]load-ajv\.js$/;
const LOAD_AJV_CONTENTS = [
  'import { createRequire } from "node:module";',
  "let ajv;",
  "export const loadAjv = () =>",
  '  (ajv ??= createRequire(createRequire(import.meta.url).resolve("@tooldock/runtime"))("ajv"));',
].join("\n");

try {
  await access(`${packageDir}/${ENTRY}`);
} catch {
  throw new Error(`${ENTRY} is missing: run tsc -b tsconfig.build.json first`);
}
let ajvReplaced = false;
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
  external: ["esbuild", "jiti"],
  // Bundle the built JS as it is (the root tsconfig's `paths` point at the TypeScript sources).
  tsconfigRaw: {},
  plugins: [
    {
      name: "load-ajv-from-runtime",
      setup(context) {
        context.onLoad({ filter: LOAD_AJV }, () => {
          ajvReplaced = true;
          return { contents: LOAD_AJV_CONTENTS, loader: "js" };
        });
      },
    },
  ],
  logLevel: "warning",
});
if (!ajvReplaced) throw new Error("the runtime's load-ajv.js was not bundled: check LOAD_AJV");
