// Builds the `tooldock inspect` page into `dist/bundle/inspect-page/`: its script (Preact and
// the page's components, one minified ES module), its stylesheet and index.html. Everything
// the page loads comes from the CLI package itself (no CDN; works offline). Called by bundle.mjs.
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";

/** Where the page's sources are, inside the CLI package. */
const PAGE_SOURCES = "src/inspect/page";
/** Where the built page goes; `page-assets.ts` looks for it beside the bundle's chunks. */
export const INSPECT_PAGE_DIR = "dist/bundle/inspect-page";

/**
 * Bundles the page; returns the files written, relative to the package. The script targets
 * browsers of the last few years (ES2022), the JSX is Preact's automatic runtime.
 * @param {string} packageDir
 */
export async function buildInspectPage(packageDir) {
  const outDir = join(packageDir, INSPECT_PAGE_DIR);
  await mkdir(outDir, { recursive: true });
  await build({
    absWorkingDir: packageDir,
    entryPoints: [
      { in: `${PAGE_SOURCES}/main.tsx`, out: "app" },
      { in: `${PAGE_SOURCES}/app.css`, out: "app" },
    ],
    outdir: INSPECT_PAGE_DIR,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome109", "firefox115", "safari16"],
    minify: true,
    legalComments: "none",
    jsx: "automatic",
    jsxImportSource: "preact",
    // The page's own settings, not the repo's (whose `paths` point at Node sources).
    tsconfigRaw: { compilerOptions: { jsx: "react-jsx", jsxImportSource: "preact" } },
    logLevel: "warning",
  });
  await copyFile(join(packageDir, PAGE_SOURCES, "index.html"), join(outDir, "index.html"));
  return ["index.html", "app.js", "app.css"].map((file) => `${INSPECT_PAGE_DIR}/${file}`);
}
