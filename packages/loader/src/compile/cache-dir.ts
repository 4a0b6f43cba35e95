import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultUserFolder } from "@tooldock/runtime";

/** Environment variable that overrides the default cache directory. */
export const CACHE_DIR_ENV = "TOOLDOCK_CACHE_DIR";

/**
 * The compile cache directory: the `cacheDir` option, else `$TOOLDOCK_CACHE_DIR`, else
 * `<cwd>/node_modules/.cache/tooldock` when `<cwd>/node_modules` exists, else the per-user
 * `$XDG_CACHE_HOME/tooldock`. Never a shared folder such as tmp: what is in the cache gets run.
 */
export function resolveCacheDir(
  cwd: string,
  cacheDir?: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (cacheDir !== undefined) return resolve(cwd, cacheDir);
  const fromEnv = env[CACHE_DIR_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return resolve(cwd, fromEnv);
  const nodeModules = join(cwd, "node_modules");
  return existsSync(nodeModules) ? join(nodeModules, ".cache", "tooldock") : defaultUserFolder("cache", env);
}
