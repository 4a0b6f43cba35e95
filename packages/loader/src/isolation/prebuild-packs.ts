import { realpathSync } from "node:fs";
import { EsbuildQueue } from "../build/esbuild-queue.js";
import { PackPlanner } from "../build/pack-planner.js";
import { openCacheFolder } from "../compile/cache-folder.js";
import { EsbuildBatch } from "../compile/esbuild-batch.js";
import { discover } from "../discover/discover-stage.js";
import type { LoadContext } from "../options.js";

/**
 * Builds (or finds current) the packs of the modules a tool host will load, in the host, into
 * `packsDir`: a cache the tool host reads and cannot write, so it evaluates packs instead of
 * compiling every module with jiti (a tool host starts no esbuild: it may start no process).
 * Nothing is evaluated here; discovery reads the folders as the tool host will, so both find
 * the same modules in the same order, hence the same packs. A pack holds only files inside
 * `readRoots` (the folders the tool host may read): a module importing one outside fails its
 * build here, and the tool host, finding no pack for it, compiles it with jiti, under its
 * permissions. Resolves to false when no pack is needed or can be kept (no module, the jiti
 * compiler, a cache folder that is not usable, said elsewhere); rejects when esbuild cannot
 * be loaded. The tool host then compiles everything itself.
 */
export async function prebuildPacks(
  context: Pick<LoadContext, "paths" | "cwd" | "compiler" | "fileSystem" | "opencode">,
  packsDir: string,
  readRoots: readonly string[],
): Promise<boolean> {
  if (context.compiler !== "esbuild" || !openCacheFolder(packsDir).usable) return false;
  const discovery = discover(context);
  await discovery.diagnostics();
  const entries = discovery.found.map((module) => module.resolvedPath);
  if (entries.length === 0) return false;
  const batch = new EsbuildBatch();
  const planner: PackPlanner = new PackPlanner((entry) => queue.alone(entry));
  const queue = new EsbuildQueue(packsDir, batch, planner, { readRoots: realRoots(readRoots) });
  planner.plan(entries);
  queue.plan(entries);
  planner.end();
  let outcomes: Array<PromiseSettledResult<unknown>>;
  try {
    // A module that does not build is the tool host's to report (it compiles it with jiti).
    outcomes = await Promise.allSettled(entries.map((entry) => queue.compile(entry)));
    await queue.settle();
  } finally {
    await batch.close();
  }
  if (batch.failedToImport)
    throw (
      outcomes.find((outcome) => outcome.status === "rejected")?.reason ??
      new Error("esbuild could not be loaded")
    );
  return true;
}

/** The roots as esbuild names the files it reads: with symbolic links resolved. */
function realRoots(roots: readonly string[]): string[] {
  const real = new Set<string>();
  for (const root of roots) {
    try {
      real.add(realpathSync(root));
    } catch {
      // Missing: nothing can be read from it.
    }
  }
  return [...real];
}
