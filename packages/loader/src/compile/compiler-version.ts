import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let cached: string | undefined;

/**
 * The installed esbuild version, read from its `package.json` without importing esbuild
 * (so a warm start can check the cache key without starting the compiler).
 */
export function esbuildVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const require = createRequire(import.meta.url);
    const main = require.resolve("esbuild");
    let directory = dirname(main);
    for (let depth = 0; depth < 4; depth += 1) {
      try {
        const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
          name?: string;
          version?: string;
        };
        if (manifest.name === "esbuild" && typeof manifest.version === "string") {
          cached = manifest.version;
          return cached;
        }
      } catch {
        // Keep walking up to the package root.
      }
      directory = dirname(directory);
    }
  } catch {
    // esbuild is not installed: the key still differs from any esbuild-built entry.
  }
  cached = "unknown";
  return cached;
}
