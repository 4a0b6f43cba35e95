/**
 * An esbuild plugin for the bundles that hold the loader (the tool host's, the CLI's):
 * jsonc-parser's `main` is a UMD file whose `require()` calls esbuild cannot follow (they throw
 * "Dynamic require … is not supported" in an ESM bundle), so its ES module build is bundled
 * instead, resolved from the importing file as the bare name would be.
 * @returns {import("esbuild").Plugin}
 */
export function jsoncParserEsm() {
  return {
    name: "jsonc-parser-esm",
    setup(build) {
      build.onResolve({ filter: /^jsonc-parser$/ }, (args) =>
        build.resolve("jsonc-parser/lib/esm/main.js", { kind: args.kind, resolveDir: args.resolveDir }),
      );
    },
  };
}
