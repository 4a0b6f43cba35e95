import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let found: { path: string | undefined } | undefined;

/**
 * The absolute path of the CLI of the jiti Tooldock ships (`jiti/lib/jiti-cli.mjs`, from its
 * package's `bin`), which pi hands its tools as `pi.jitiCliPath`: subagent tools start
 * `node <jitiCliPath> worker.ts` to run TypeScript in a child process. Found once, on first
 * read; `undefined` where jiti cannot be resolved (then such a tool says it needs it).
 */
export function jitiCliPath(): string | undefined {
  if (found !== undefined) return found.path;
  found = { path: undefined };
  try {
    const manifestPath = createRequire(import.meta.url).resolve("jiti/package.json");
    const { bin } = createRequire(import.meta.url)(manifestPath) as { bin?: string | Record<string, string> };
    const cli = typeof bin === "string" ? bin : bin?.jiti;
    if (cli !== undefined) found.path = join(dirname(manifestPath), cli);
  } catch {
    // Not resolvable from here: left undefined.
  }
  return found.path;
}
