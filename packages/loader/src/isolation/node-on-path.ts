import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** Whether `path` is an executable regular file (through links), by its real path. */
function executable(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    accessSync(path, constants.X_OK);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The Node a host on Bun runs its tool hosts under: the first `node` on `path` that is not the
 * running Bun. `bun --bun run` (and `bun run` where Node is missing) puts a `node` that is Bun
 * itself first on PATH, which has no permission model. Relative entries are skipped (they
 * would resolve against the working folder, which the tools may write). `"node"` when none
 * is found: the start then fails and says so.
 */
export function nodeOnPath(path: string | undefined, bunExecPath: string): string {
  const self = executable(bunExecPath) ?? bunExecPath;
  for (const folder of (path ?? "").split(delimiter)) {
    if (!isAbsolute(folder)) continue;
    const candidate = join(folder, "node");
    const real = executable(candidate);
    if (real !== undefined && real !== self) return candidate;
  }
  return "node";
}
