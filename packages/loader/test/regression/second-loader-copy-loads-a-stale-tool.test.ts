import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { builtEntry, testCacheDir } from "../helpers.js";
import { runNode } from "../per-file/run-node.js";

/**
 * On Node 22.15+ a cold load serves a tool's files at `file:` URLs with `?tooldock=<n>`, `n`
 * counting the graphs that copy of the loader served. A process with two copies of the loader
 * (two installed versions, or a test runner that imports it afresh) counted twice from 1: the
 * second copy's first cold load asked Node for the URL the first copy had served, and Node
 * handed back the module it already had. An edited tool loaded through the second copy ran
 * its old code, with no diagnostic, while Node 20 (which bundles) loaded the edit.
 */
let scratch = "";
let copy = "";

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "tooldock-two-copies-")));
  // Beside the loader's own node_modules, so that the copy finds the loader's dependencies.
  copy = testCacheDir("loader-copy");
  await cp(dirname(builtEntry("loader")), join(copy, "dist"), { recursive: true });
  await writeFile(join(copy, "package.json"), JSON.stringify({ type: "module" }));
}, 60_000);
afterAll(async () => {
  for (const folder of [scratch, copy]) if (folder !== "") await rm(folder, { recursive: true, force: true });
});

const SCRIPT = `import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [first, second, runtime, scratch] = process.argv.slice(2);
const { Session } = await import(pathToFileURL(runtime).href);
const tool = join(scratch, "tools", "answer.ts");
const source = (text) => \`export default (pi: any) => ({ name: "answer", label: "Answer",
  description: "Answers.", parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: \${JSON.stringify(text)} }] }; } });
\`;
async function answer(loader, cacheDir) {
  const { loadCustomTools } = await import(pathToFileURL(loader).href);
  const session = new Session({ cwd: scratch });
  const result = await loadCustomTools({ paths: [tool], cwd: scratch, cacheDir, session });
  await result.cached;
  const call = await session.execute({ toolCallId: "c", name: "answer", params: {} });
  return { diagnostics: result.diagnostics.map((d) => d.code), text: call.content[0]?.text };
}
writeFileSync(tool, source("before the edit"));
const before = await answer(first, join(scratch, "cache-first"));
writeFileSync(tool, source("after the edit"));
const after = await answer(second, join(scratch, "cache-second"));
console.log(JSON.stringify({ before, after }));
`;

describe("regression: a second copy of the loader in a process, on Node 24", () => {
  it("loads the tool as it is now, not the module the first copy served", { timeout: 600_000 }, async () => {
    const node = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
    await mkdir(join(scratch, "tools"));
    const script = join(scratch, "two-copies.mjs");
    await writeFile(script, SCRIPT);
    const run = await runNode(node, [
      script,
      builtEntry("loader"),
      join(copy, "dist", "index.js"),
      builtEntry("runtime"),
      scratch,
    ]);
    const report = JSON.parse(run.stdout) as Record<
      "before" | "after",
      { diagnostics: string[]; text: string }
    >;
    expect(report.before).toEqual({ diagnostics: [], text: "before the edit" });
    expect(report.after).toEqual({ diagnostics: [], text: "after the edit" });
  });
});
