// esbuild plugin and check: the bundle's entry (what `--version`, `--help` and every command
// load before the command's own chunk) holds the CLI shell only. esbuild's code splitting puts
// every module a package's index re-exports into the chunks of whoever imports the index, so one
// `import { escapeTerminalText } from "@tooldock/loader"` in the shell made every start load the
// loader, the runtime, TypeBox, zod and Ajv (27 chunks). The few shell imports of a Tooldock
// package go to the one file that defines the name instead; the commands keep the index.
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/**
 * Shell import → the file of the package that defines what it imports. A name that moves makes
 * the build fail ("No matching export"), a file that moves too ("Could not resolve").
 */
export const SHELL_IMPORTS = [
  {
    importer: "dist/output/terminal-text.js",
    specifier: "@tooldock/loader",
    file: "dist/format/terminal-text.js",
  },
  {
    importer: "dist/compile-cache.js",
    specifier: "@tooldock/runtime",
    file: "dist/util/private-folder.js",
  },
];

/**
 * Folders of the packages the shell must not load (besides the files {@link SHELL_IMPORTS}
 * names), as they appear in input paths: installed, or this workspace's own.
 */
const NOT_IN_SHELL = [
  "node_modules/@sinclair/typebox/",
  "node_modules/zod/",
  "node_modules/ajv/",
  "node_modules/@modelcontextprotocol/",
  "@tooldock/runtime/",
  "@tooldock/loader/",
  "@tooldock/ast-edit/",
  "packages/runtime/dist/",
  "packages/loader/dist/",
  "packages/ast-edit/dist/",
];

/**
 * @param {string} packageDir the CLI package
 * @returns {import("esbuild").Plugin}
 */
export function shellImports(packageDir) {
  const fromCli = createRequire(join(packageDir, "package.json"));
  return {
    name: "shell-imports",
    setup(build) {
      for (const entry of SHELL_IMPORTS) {
        const filter = new RegExp(`^${entry.specifier.replace(/[/]/g, "\\/")}$`);
        build.onResolve({ filter }, (args) => {
          if (resolve(args.importer) !== resolve(packageDir, entry.importer)) return undefined;
          const manifest = fromCli.resolve(`${entry.specifier}/package.json`);
          return { path: join(dirname(manifest), entry.file) };
        });
      }
    },
  };
}

/**
 * Fails when the entry's static imports reach TypeBox, zod, Ajv, the MCP SDK or a Tooldock
 * package other than through {@link SHELL_IMPORTS}: a static import that should be a dynamic one.
 *
 * @param {import("esbuild").Metafile} metafile
 * @param {string} entryOutput the entry's output path, as the metafile names it
 */
export function assertLeanShell(metafile, entryOutput) {
  const allowed = SHELL_IMPORTS.map((entry) => `${entry.specifier.split("/").at(-1)}/${entry.file}`);
  const seen = new Set();
  const queue = [entryOutput];
  while (queue.length > 0) {
    const output = /** @type {string} */ (queue.pop());
    if (seen.has(output)) continue;
    seen.add(output);
    const { imports, inputs } = metafile.outputs[output] ?? { imports: [], inputs: {} };
    for (const input of Object.keys(inputs)) {
      const path = input.replaceAll("\\", "/");
      if (
        NOT_IN_SHELL.some((folder) => path.includes(folder)) &&
        !allowed.some((file) => path.endsWith(file))
      ) {
        throw new Error(
          `${output} (statically imported by the bundle's entry) holds ${input}: every start would load it. ` +
            "Import it where it is used with a dynamic import(), or add the one file needed to SHELL_IMPORTS " +
            "in packages/cli/scripts/shell-imports.mjs.",
        );
      }
    }
    for (const next of imports) if (next.kind === "import-statement" && !next.external) queue.push(next.path);
  }
}
