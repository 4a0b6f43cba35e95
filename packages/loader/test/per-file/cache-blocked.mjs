// A cold load whose packs cannot be written after it (`<cacheDir>/bundles` is a file): run by
// per-file.e2e.test.ts under Node 22.15+. Prints one JSON line: the load's diagnostics and
// what its `cached` resolved with.
//   node cache-blocked.mjs <toolsDir> <cacheDir>
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [tools = "", cacheDir = ""] = process.argv.slice(2);
const { loadCustomTools } = await import(new URL("../../dist/index.js", import.meta.url).href);
const { Session } = await import(
  pathToFileURL(join(import.meta.dirname, "../../../runtime/dist/index.js")).href
);
const result = await loadCustomTools({
  paths: [tools],
  cwd: tools,
  cacheDir,
  session: new Session({ cwd: tools }),
});
const warnings = await result.cached;
const codes = (list) => list.map((entry) => entry.code);
process.stdout.write(
  `${JSON.stringify({ tools: result.tools.length, diagnostics: codes(result.diagnostics), cached: codes(warnings), message: warnings[0]?.message })}\n`,
);
