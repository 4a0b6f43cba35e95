// One CommonJS file written beside the bundle's chunks, for a library the bundle `require`s
// lazily (the zod locales, Ajv): minified, everything it imports bundled in.
import { build } from "esbuild";

/**
 * Bundles `entry` into the CommonJS file `outfile`.
 *
 * @param {string} entry
 * @param {string} outfile
 */
export async function writeCommonJsFile(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    logLevel: "warning",
  });
}
