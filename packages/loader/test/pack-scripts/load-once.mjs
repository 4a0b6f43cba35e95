// Loads <toolsDir> with the built loader in this fresh process (cache <cacheDir>), waits for
// what the load leaves for after it, and prints one JSON line: the tools, the diagnostics'
// codes, what the process did with packs (`packScriptCounts`), and the stack of the error the
// tool "throws" throws (Node's own stack formatting: no test runner in this process).
//   node load-once.mjs <toolsDir> <cacheDir>
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir = "", cacheDir = ""] = process.argv.slice(2);
const dist = new URL("../../dist/", import.meta.url);
const { loadCustomTools } = await import(new URL("index.js", dist).href);
const { packScriptCounts } = await import(new URL("build/pack-script.js", dist).href);
const { Session } = await import(
  pathToFileURL(join(import.meta.dirname, "../../../runtime/dist/index.js")).href
);

const session = new Session({ cwd: toolsDir });
const result = await loadCustomTools({ paths: [toolsDir], cwd: toolsDir, cacheDir, session });
await result.cached;
const context = {
  sessionId: "t",
  cwd: toolsDir,
  hasPendingActions: () => false,
  abort() {},
  pushPendingAction() {},
};
let stack = "";
const throws = result.tools.find((loaded) => loaded.tool.name === "throws")?.tool;
if (throws !== undefined)
  stack = String((await throws.execute("1", {}, undefined, context).catch((error) => error)).stack);
const answers = {};
for (const { tool } of result.tools) {
  if (tool.name === "throws") continue;
  const called = await tool.execute("1", {}, undefined, context);
  answers[tool.name] = called.content[0]?.text;
}
process.stdout.write(
  `${JSON.stringify({
    tools: result.tools.map((loaded) => loaded.tool.name),
    diagnostics: result.diagnostics.map((diagnostic) => `${diagnostic.code} ${diagnostic.message}`),
    counts: packScriptCounts,
    stack,
    answers,
  })}\n`,
);
