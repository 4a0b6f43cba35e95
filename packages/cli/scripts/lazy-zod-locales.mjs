// esbuild plugin: keeps zod's 60-odd locales (two thirds of zod in the bundle, ~260 KB that V8
// compiled at every start, about 17 ms) out of the chunks a command imports. `z.locales` keeps
// every name: `en` is zod's own (zod configures it at import), and each other locale is a
// function that, on its first call, requires `zod-locales.cjs` beside the chunks, a CommonJS
// build of the same locale files made by `writeLocalesFile` from the same zod folder.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeCommonJsFile } from "./commonjs-file.mjs";

/** `export { default as de } from "./de.js";`, the one form zod's locales index uses. */
const LOCALE_EXPORT = /^export \{ default as ([A-Za-z_$][\w$]*) \} from "\.\/([\w-]+)\.js";$/;

/** The file the lazy locales require, in the bundle's folder. */
const LOCALES_FILE = "zod-locales.cjs";

/**
 * @param {{ index?: string }} found the plugin sets `index` to the locales index it replaced
 * @returns {import("esbuild").Plugin}
 */
export function lazyZodLocales(found) {
  return {
    name: "lazy-zod-locales",
    setup(buildContext) {
      buildContext.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, async (args) => {
        if (found.index !== undefined && found.index !== args.path) {
          throw new Error(`two copies of zod's locales: ${found.index} and ${args.path}`);
        }
        found.index = args.path;
        const names = parseLocaleNames(await readFile(args.path, "utf8"), args.path);
        if (!names.includes("en")) throw new Error(`${args.path} has no "en" locale`);
        const lines = [
          'import { createRequire } from "node:module";',
          'import en from "./en.js";',
          "let locales;",
          `const load = () => (locales ??= createRequire(import.meta.url)(${JSON.stringify(`./${LOCALES_FILE}`)}));`,
          "export { en };",
          ...names
            .filter((name) => name !== "en")
            .map((name) => `export const ${name} = (...args) => load().${name}(...args);`),
        ];
        return { contents: lines.join("\n"), loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Writes the CommonJS build of the locales index the plugin replaced, into `outDir`.
 *
 * @param {string} index
 * @param {string} outDir
 */
export async function writeLocalesFile(index, outDir) {
  await writeCommonJsFile(index, join(outDir, LOCALES_FILE));
}

/**
 * @param {string} source
 * @param {string} path
 */
function parseLocaleNames(source, path) {
  const names = [];
  for (const line of source.split("\n")) {
    const text = line.trim();
    if (text === "") continue;
    const match = LOCALE_EXPORT.exec(text);
    if (match === null)
      throw new Error(`${path}: unexpected line ${JSON.stringify(text)}; update lazy-zod-locales.mjs`);
    names.push(/** @type {string} */ (match[1]));
  }
  return names;
}
