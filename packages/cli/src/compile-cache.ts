import { mkdirSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { checkPrivateFolderSync, defaultUserFolder } from "@tooldock/runtime";

/**
 * Turns on Node's compile cache (Node 22.1 and later) for this process, in
 * `<per-user tooldock cache>/node-compile-cache`, so that the CLI's own bundle (and the packs it
 * imports) start from V8's cached code: `tooldock list` on the examples took 226 ms against 251
 * ms on Node 24 (median of 21, alternating). Only in a private folder: Node's default is the
 * shared system tmp, where another user could plant cache entries. Skipped when the Node
 * version has no compile cache, when the user set `NODE_COMPILE_CACHE` or
 * `NODE_DISABLE_COMPILE_CACHE` (theirs to decide), and when the folder is not private. The tool
 * host is a process of its own and does not inherit it. Never throws.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
  if (typeof enable !== "function" || "Bun" in globalThis) return;
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  try {
    const root = defaultUserFolder("cache", env);
    const folder = join(root, "node-compile-cache");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (checkPrivateFolderSync(folder, root).ok) enable(folder);
  } catch {
    // No home folder, a read-only disk: the CLI runs without the cache.
  }
}
