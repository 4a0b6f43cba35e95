// esbuild plugin: keeps Ajv (with fast-uri and its other dependencies, ~120 KB that took 10–15 ms
// to import) out of the chunks a command imports. The runtime loads Ajv on the first schema
// TypeBox's compiler cannot compile, through `loadAjv()` (runtime/src/schema/load-ajv.ts), a
// `require` from the runtime's own folder; the bundle has no such folder, so this plugin swaps
// that module for one that requires `ajv.cjs` beside the chunks, a CommonJS build of the same
// Ajv written by `writeAjvFile`, `re2js.cjs` for `loadRe2()` (the linear-time engine Ajv runs
// schema patterns on) and `ajv-formats.cjs` for `loadFormats()` (ajv-formats' string formats). (The MCP SDK's own import of Ajv stays in its lazy chunks.)
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeCommonJsFile } from "./commonjs-file.mjs";

/** The file the lazy `loadAjv` requires, in the bundle's folder. */
const AJV_FILE = "ajv.cjs";

/** The file the lazy `loadAjv2020` requires (Ajv's JSON Schema 2020-12 class, sharing nothing with `ajv.cjs`). */
const AJV_2020_FILE = "ajv-2020.cjs";

/** The file the lazy `loadRe2` requires (re2js, Ajv's linear-time pattern engine). */
const RE2_FILE = "re2js.cjs";

/** The file the lazy `loadFormats` requires (ajv-formats' string formats). */
const FORMATS_FILE = "ajv-formats.cjs";

/** The runtime's module that loads Ajv (tsc's output of runtime/src/schema/load-ajv.ts). */
const LOAD_AJV = /[\\/]runtime[\\/]dist[\\/]schema[\\/]load-ajv\.js$/;

/** The replacement: the same export, requiring the bundle's own copy. */
const CONTENTS = [
  'import { createRequire } from "node:module";',
  "let ajv;",
  "let re2;",
  `export const loadAjv = () => (ajv ??= createRequire(import.meta.url)(${JSON.stringify(`./${AJV_FILE}`)}));`,
  "let ajv2020;",
  `export const loadAjv2020 = () => (ajv2020 ??= createRequire(import.meta.url)(${JSON.stringify(`./${AJV_2020_FILE}`)}));`,
  `export const loadRe2 = () => (re2 ??= createRequire(import.meta.url)(${JSON.stringify(`./${RE2_FILE}`)}));`,
  "let formats;",
  `export const loadFormats = () => (formats ??= createRequire(import.meta.url)(${JSON.stringify(`./${FORMATS_FILE}`)}));`,
].join("\n");

/**
 * @param {{ loadAjv?: string }} found the plugin sets `loadAjv` to the module it replaced
 * @returns {import("esbuild").Plugin}
 */
export function lazyAjv(found) {
  return {
    name: "lazy-ajv",
    setup(buildContext) {
      buildContext.onLoad({ filter: LOAD_AJV }, (args) => {
        if (found.loadAjv !== undefined && found.loadAjv !== args.path) {
          throw new Error(`two copies of the runtime's load-ajv.js: ${found.loadAjv} and ${args.path}`);
        }
        found.loadAjv = args.path;
        return { contents: CONTENTS, loader: "js" };
      });
    },
  };
}

/**
 * Writes the CommonJS build of the Ajv that `loadAjv` (at `loadAjvPath`) requires, into `outDir`.
 *
 * @param {string} loadAjvPath
 * @param {string} outDir
 */
export async function writeAjvFile(loadAjvPath, outDir) {
  const fromRuntime = createRequire(loadAjvPath);
  await writeCommonJsFile(fromRuntime.resolve("ajv"), join(outDir, AJV_FILE));
  await writeCommonJsFile(fromRuntime.resolve("ajv/dist/2020"), join(outDir, AJV_2020_FILE));
  await writeCommonJsFile(fromRuntime.resolve("re2js"), join(outDir, RE2_FILE));
  await writeCommonJsFile(fromRuntime.resolve("ajv-formats/dist/formats"), join(outDir, FORMATS_FILE));
}
