// esbuild plugin: keeps the packages the bundle cannot hold (a native addon, a compiler binary,
// a transpiler loaded only when asked for) outside it, and imports each at run time from the
// Tooldock package that declares it, as the unbundled code would. The CLI needs no copy of
// its own: the bundle resolves `@tooldock/loader` (a dependency of the CLI) and asks it for
// `esbuild`, so a user gets the versions the loader and ast-edit were built against.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** External specifier → the Tooldock package that depends on it. */
export const OWNED_EXTERNALS = {
  esbuild: "@tooldock/loader",
  jiti: "@tooldock/loader",
  "oxc-transform": "@tooldock/loader",
  "@ast-grep/napi": "@tooldock/ast-edit",
};

const NAMESPACE = "owned-external";
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The export names `import(specifier)` gives the owner's code in plain Node (CommonJS packages:
 * Node names their exports by reading the source), taken by importing it once here.
 * `oxc-transform` is an ES module: the facade's `require` of it needs `require(esm)`, which every
 * Node that uses it has (the loader compiles file by file only on Node 22.15+).
 *
 * @param {string} packageDir
 * @param {string} specifier
 * @param {string} owner
 */
async function exportNames(packageDir, specifier, owner) {
  const fromCli = createRequire(join(packageDir, "package.json"));
  const fromOwner = createRequire(fromCli.resolve(`${owner}/package.json`));
  const namespace = await import(pathToFileURL(fromOwner.resolve(specifier)).href);
  return Object.keys(namespace)
    .filter((name) => name !== "default" && IDENTIFIER.test(name))
    .sort();
}

/**
 * An ES module standing in for `specifier`: it requires the package from the owner's folder
 * when first imported (the import sites are lazy chunks), with the same named exports.
 *
 * @param {string} specifier
 * @param {string} owner
 * @param {string[]} names
 */
function facadeSource(specifier, owner, names) {
  return [
    `// ${specifier}, resolved from ${owner} (see packages/cli/scripts/owned-externals.mjs)`,
    'import { createRequire } from "node:module";',
    "const fromCli = createRequire(import.meta.url);",
    `const external = createRequire(fromCli.resolve(${JSON.stringify(`${owner}/package.json`)}))(${JSON.stringify(specifier)});`,
    "export default external;",
    names.length > 0 ? `export const { ${names.join(", ")} } = external;` : "",
  ].join("\n");
}

/**
 * @param {string} packageDir the CLI package (where the bundle lives)
 * @returns {import("esbuild").Plugin}
 */
export function ownedExternals(packageDir) {
  const specifiers = Object.keys(OWNED_EXTERNALS).map((name) => name.replace(/[/]/g, "\\/"));
  return {
    name: "owned-externals",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${specifiers.join("|")})$`) }, (args) => ({
        path: args.path,
        namespace: NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const owner = OWNED_EXTERNALS[/** @type {keyof typeof OWNED_EXTERNALS} */ (args.path)];
        const names = await exportNames(packageDir, args.path, owner);
        return { loader: "js", resolveDir: packageDir, contents: facadeSource(args.path, owner, names) };
      });
    },
  };
}
