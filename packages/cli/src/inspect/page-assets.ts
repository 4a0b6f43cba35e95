import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder name of the built page, inside the CLI's `dist/bundle/` (see `scripts/bundle.mjs`). */
export const PAGE_FOLDER = "inspect-page";

/** The page's files: URL path → file name and content type. Nothing else is served from disk. */
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
};

/** One file of the page. */
export interface PageAsset {
  body: Buffer;
  type: string;
}

/** Reads the page's files (built at build time into the CLI package); cached after the first read. */
export interface PageAssets {
  /** The file for a URL path, `undefined` when the path is not one of the page's files. */
  read(path: string): Promise<PageAsset | undefined>;
}

/**
 * Where the built page is: beside the running chunk in the bundle (`dist/bundle/inspect-page/`),
 * or, when the CLI runs from tsc's `dist/inspect/`, in `dist/bundle/inspect-page/` next to it.
 */
export function defaultPageFolder(): string {
  const candidates = [
    fileURLToPath(new URL(`./${PAGE_FOLDER}/`, import.meta.url)),
    fileURLToPath(new URL(`../bundle/${PAGE_FOLDER}/`, import.meta.url)),
    fileURLToPath(new URL(`../../dist/bundle/${PAGE_FOLDER}/`, import.meta.url)),
  ];
  return candidates.find((folder) => existsSync(join(folder, "index.html"))) ?? (candidates[0] as string);
}

/** The page's files in `folder`; a missing file is an error that says to build the CLI. */
export function pageAssets(folder: string): PageAssets {
  const cache = new Map<string, PageAsset>();
  return {
    async read(path) {
      const asset = ASSETS[path];
      if (asset === undefined) return undefined;
      const cached = cache.get(path);
      if (cached !== undefined) return cached;
      let body: Buffer;
      try {
        body = await readFile(join(folder, asset.file));
      } catch (error) {
        throw new Error(
          `The inspect page's ${asset.file} is missing from ${folder}: the CLI was built without its page. ` +
            `Build it (pnpm build, which runs packages/cli/scripts/bundle.mjs).`,
          { cause: error },
        );
      }
      const loaded = { body, type: asset.type };
      cache.set(path, loaded);
      return loaded;
    },
  };
}
