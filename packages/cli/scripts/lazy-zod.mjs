// esbuild plugin: the runtime and the loader load zod on first use, through `loadZodCore`
// (runtime/src/schema/load-zod-core.ts) and `loadZodModule` (loader/src/compile/load-zod.ts), a
// `require` from their own folders; the bundle has no such folders (and the CLI no zod of its
// own). This plugin swaps both modules for ones that `require` the bundle's own zod, resolved
// as an `import` is, so that it is the very module a tool's `import "zod"` gets (esbuild
// initialises it on that first call), not a second copy.

/** The modules replaced, and their stand-ins: the same exports. */
const LAZY_ZOD = [
  {
    file: /[\\/]runtime[\\/]dist[\\/]schema[\\/]load-zod-core\.js$/,
    contents: 'let core;\nexport const loadZodCore = () => (core ??= require("zod/v4/core"));',
  },
  {
    file: /[\\/]loader[\\/]dist[\\/]compile[\\/]load-zod\.js$/,
    contents: [
      "export const loadZodModule = (specifier) => {",
      "  switch (specifier) {",
      '    case "zod": return require("zod");',
      '    case "zod/v4": return require("zod/v4");',
      '    case "zod/v4/core": return require("zod/v4/core");',
      '    case "zod/mini": return require("zod/mini");',
      "  }",
      '  throw new Error("not a zod entry point: " + specifier);',
      "};",
    ].join("\n"),
  },
];

/**
 * @param {{ replaced: Set<string> }} found the plugin adds each module it replaced
 * @returns {import("esbuild").Plugin}
 */
export function lazyZod(found) {
  return {
    name: "lazy-zod",
    setup(buildContext) {
      for (const { file, contents } of LAZY_ZOD)
        buildContext.onLoad({ filter: file }, () => {
          found.replaced.add(String(file));
          return { contents, loader: "js" };
        });
      buildContext.onResolve({ filter: /^zod(\/|$)/ }, (args) =>
        args.kind === "require-call"
          ? buildContext.resolve(args.path, { kind: "import-statement", resolveDir: args.resolveDir })
          : undefined,
      );
    },
  };
}

/** Throws unless both modules were replaced. */
export function assertZodReplaced(/** @type {{ replaced: Set<string> }} */ found) {
  if (found.replaced.size !== LAZY_ZOD.length)
    throw new Error("a module that loads zod on first use was not bundled: check lazy-zod.mjs");
}
