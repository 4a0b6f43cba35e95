import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, parse, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { nearestUp } from "../compile/find-tsconfig.js";

/** The packages the tool host's own code imports, each resolved from the one before it. */
const CHAIN: ReadonlyArray<readonly [from: string, packages: readonly string[]]> = [
  // Bundled into another package (the tooldock CLI), this code's package is that one: the
  // loader it depends on holds the externals (jiti). Unbundled, the loader resolves to itself.
  ["@tooldock/loader", ["@tooldock/loader"]],
  ["@tooldock/loader", ["@tooldock/runtime", "@tooldock/sdk", "@sinclair/typebox", "zod", "jiti"]],
  ["@tooldock/runtime", ["ajv"]],
];

/** The folder of the package.json that owns `file`. */
function packageRoot(file: string): string {
  const owner = (folder: string) => (existsSync(join(folder, "package.json")) ? folder : undefined);
  return nearestUp(file, new Map(), owner, dirname(file));
}

/**
 * A package's folder as the tool host must be allowed to read it: the outermost
 * `node_modules` above it when it is installed (its own dependencies sit beside it there,
 * with npm and with pnpm's `.pnpm` store), else the package itself (a workspace package).
 */
function readRoot(folder: string): string {
  const parts = folder.split(sep);
  const first = parts.indexOf("node_modules");
  return first === -1 ? folder : parts.slice(0, first + 1).join(sep) || parse(folder).root;
}

/**
 * The folders the tool host reads its own code from: this package, and every package it
 * imports (resolved the way Node resolves them, real paths).
 */
export function ownCodeFolders(): string[] {
  const loaderRoot = realpathSync(fileURLToPath(new URL("../../", import.meta.url)));
  const roots = new Map<string, string>([["@tooldock/loader", loaderRoot]]);
  const folders = new Set([readRoot(loaderRoot)]);
  for (const [from, packages] of CHAIN) {
    const base = roots.get(from);
    if (base === undefined) continue;
    const require = createRequire(join(base, "package.json"));
    for (const name of packages) {
      let root: string;
      try {
        root = packageRoot(realpathSync(require.resolve(name)));
      } catch {
        continue; // not installed: the tool host says so when it needs it
      }
      roots.set(name, root);
      folders.add(readRoot(root));
    }
  }
  return [...folders];
}
