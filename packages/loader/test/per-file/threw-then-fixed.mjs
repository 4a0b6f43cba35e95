// A module whose top level throws until its config file is written, loaded three times in one
// process: run by per-file.e2e.test.ts under Node 22.15+. Prints one JSON line.
//   node threw-then-fixed.mjs <projectDir>
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [root = ""] = process.argv.slice(2);
const { loadCustomTools } = await import(new URL("../../dist/index.js", import.meta.url).href);
const tools = join(root, "tools");
const bundles = join(root, "cache", "bundles");

async function load() {
  const result = await loadCustomTools({ paths: [tools], cwd: root, cacheDir: join(root, "cache") });
  const packs = existsSync(bundles) ? readdirSync(bundles).length : 0;
  await result.cached;
  return {
    tools: result.tools.map(({ tool }) => tool.name),
    codes: result.diagnostics.map(({ code }) => code),
    packs,
  };
}

const missing = await load();
const stillMissing = await load();
writeFileSync(join(tools, "config.json"), JSON.stringify({ greeting: "hello" }));
const fixed = await load();
process.stdout.write(`${JSON.stringify({ missing, stillMissing, fixed })}\n`);
