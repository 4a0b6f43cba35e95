// Two scenarios of per-file.e2e.test.ts, run under Node 22.15+; prints one JSON line.
//   node neighbours.mjs <root> cold   loads <root>/tools cold and waits for its packs; loads
//                                     <root>/broken twice (its import fails at link time)
//   node neighbours.mjs <root> warm   loads <root>/tools from its packs, edits tools/d, loads again
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root = "", phase = ""] = process.argv.slice(2);
const { loadCustomTools } = await import(new URL("../../dist/index.js", import.meta.url).href);
const { Session } = await import(
  pathToFileURL(join(import.meta.dirname, "../../../runtime/dist/index.js")).href
);
const cacheDir = join(root, "cache");
const evaluated = () => [...(globalThis.tooldockTestEvaluations ?? [])];

async function load(folder) {
  const session = new Session({ cwd: root });
  const result = await loadCustomTools({ paths: [join(root, folder)], cwd: root, cacheDir, session });
  await result.cached;
  return {
    tools: result.tools.map((loaded) => loaded.tool.name).sort(),
    diagnostics: result.diagnostics.map((entry) => ({ code: entry.code, message: entry.message })),
  };
}

if (phase === "cold") {
  const tools = await load("tools");
  const broken = [await load("broken"), await load("broken")];
  process.stdout.write(`${JSON.stringify({ tools, broken, evaluated: evaluated() })}\n`);
} else {
  const first = await load("tools");
  const afterFirst = evaluated();
  const file = join(root, "tools", "d.ts");
  writeFileSync(file, readFileSync(file, "utf8").replace("the first d", "the edited d"));
  const edited = await load("tools");
  process.stdout.write(`${JSON.stringify({ first, afterFirst, edited, afterEdit: evaluated() })}\n`);
}
