// Loads each given module path on its own (its own cache folder under <cacheRoot>) with the
// built loader, and prints one JSON line: per path, the tools, the diagnostics, and how many
// packs the cache held when the load returned and once its `cached` settled. Run by
// per-file.e2e.test.ts under Node 22.15+.
//   node load-each.mjs <cacheRoot> <path>...
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [cacheRoot = "", ...paths] = process.argv.slice(2);
const dist = new URL("../../dist/", import.meta.url);
const { loadCustomTools } = await import(new URL("index.js", dist).href);
const { Session } = await import(
  pathToFileURL(join(import.meta.dirname, "../../../runtime/dist/index.js")).href
);

const loads = [];
for (const [at, path] of paths.entries()) {
  const cacheDir = join(cacheRoot, String(at));
  const session = new Session({ cwd: import.meta.dirname });
  const result = await loadCustomTools({ paths: [path], cwd: import.meta.dirname, cacheDir, session });
  const bundles = join(cacheDir, "bundles");
  const packs = () => (existsSync(bundles) ? readdirSync(bundles).length : 0);
  const packsAtReturn = packs();
  await result.cached;
  loads.push({
    path,
    tools: result.tools.map((loaded) => loaded.tool.name),
    diagnostics: result.diagnostics,
    packsAtReturn,
    packsCached: packs(),
  });
}
process.stdout.write(`${JSON.stringify(loads)}\n`);
