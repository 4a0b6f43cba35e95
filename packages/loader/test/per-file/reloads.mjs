// What a host that loads the same tools again sees when they were compiled file by file: run
// by per-file.e2e.test.ts under Node 22.15+. Prints one JSON line.
//   node reloads.mjs <projectDir>
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root = ""] = process.argv.slice(2);
const { loadCustomTools } = await import(new URL("../../dist/index.js", import.meta.url).href);
const { Session } = await import(
  pathToFileURL(join(import.meta.dirname, "../../../runtime/dist/index.js")).href
);

const tools = join(root, "tools");
const options = { paths: [tools], cwd: root, cacheDir: join(root, "cache") };
const evaluations = () => globalThis.tooldockTestEvaluations ?? [];
const bundles = join(root, "cache", "bundles");
/** Per load, the packs in the cache when it returned: none for a load that went file by file. */
const packsAtReturn = [];

/** One load into a new session: each tool's description and what its call answers. */
async function load() {
  const session = new Session({ cwd: root });
  const result = await loadCustomTools({ ...options, session });
  packsAtReturn.push(existsSync(bundles) ? readdirSync(bundles).length : 0);
  await result.cached; // the packs are there for the next load
  const answers = {};
  for (const { tool } of result.tools) {
    const answer = await session.execute({ toolCallId: `call-${tool.name}`, name: tool.name, params: {} });
    answers[tool.name] = { description: tool.description, text: answer.content[0]?.text };
  }
  return {
    answers,
    diagnostics: result.diagnostics.map((entry) => entry.code),
    evaluated: [...evaluations()],
  };
}

const first = await load();
const again = await load();
const fileA = join(tools, "a", "index.ts");
writeFileSync(fileA, readFileSync(fileA, "utf8").replace("the first a", "the edited a"));
const edited = await load();
process.stdout.write(`${JSON.stringify({ first, again, edited, packsAtReturn })}\n`);
