import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { orElse } from "../discover/expand-path.js";
import { BUILD_OPTIONS } from "./build-options.js";
import { CACHE_FORMAT_VERSION } from "./cache-index.js";
import { nearestUp } from "./find-tsconfig.js";
import { hash } from "./hash.js";

let cached: string | undefined;
let contextHash: string | undefined;

/**
 * The folder of esbuild's `package.json`, looked up the way Node finds a dependency of the
 * loader: in `node_modules` of the loader's package folder, then of each folder above it.
 * The loader's code may run from another package's bundle (the `tooldock` executable is
 * one) whose folder need not hold esbuild; `@tooldock/loader` resolves from both (a package
 * can import itself by name). `import.meta.resolve` uses the ES resolver the process has
 * already warmed up; `createRequire` would start the CommonJS one (about 4 ms).
 */
function esbuildPackageDir(): string | null {
  const from = orElse(
    () => fileURLToPath(import.meta.resolve("@tooldock/loader/package.json")),
    fileURLToPath(import.meta.url),
  );
  const installed = (folder: string) => {
    const candidate = join(folder, "node_modules", "esbuild");
    return existsSync(join(candidate, "package.json")) ? candidate : undefined;
  };
  return nearestUp(from, new Map(), installed, null);
}

/** esbuild's folder by Node's resolver, for Yarn PnP or `NODE_PATH` (slower: the CommonJS one); may throw. */
function resolvedPackageDir(): string {
  const require = createRequire(import.meta.url);
  // Not reachable by name: resolved from here.
  const from = orElse(() => createRequire(require.resolve("@tooldock/loader/package.json")), require);
  return dirname(from.resolve("esbuild/package.json"));
}

/** The installed esbuild version, from its `package.json`: a warm start does not import esbuild. */
export function esbuildVersion(): string {
  if (cached !== undefined) return cached;
  cached = "unknown";
  try {
    const directory = esbuildPackageDir() ?? resolvedPackageDir();
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
      name?: string;
      version?: string;
    };
    if (manifest.name === "esbuild" && typeof manifest.version === "string") cached = manifest.version;
  } catch {
    // No esbuild found, or an unreadable manifest: "unknown", which no bundle built by a known version has.
  }
  return cached;
}

/** Hash of everything besides the sources that shapes a pack (part of every key). */
export function esbuildContextHash(): string {
  contextHash ??= hash(
    JSON.stringify({ format: CACHE_FORMAT_VERSION, esbuild: esbuildVersion(), options: BUILD_OPTIONS }),
  );
  return contextHash;
}
