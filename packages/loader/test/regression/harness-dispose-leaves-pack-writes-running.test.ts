import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testRuntime } from "../../../../scripts/runtimes.mjs";
import { runNode } from "../per-file/run-node.js";

/**
 * A tool author's test on Node 22.15+: `createToolHarness` loads the tool cold, file by file,
 * and its packs are written after the load. `harness.dispose()` returned while they were still
 * being written, so the test's own cleanup (removing its cache folder) failed with ENOTEMPTY,
 * now and then. `dispose()` now waits for them: once it returns, the packs are on disk.
 */
const testing = new URL("../../dist/testing/index.js", import.meta.url).href;
let scratch = "";

beforeAll(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "tooldock-harness-dispose-")));
  await writeFile(
    join(scratch, "echo.ts"),
    `export default (pi: any) => ({ name: "echo", label: "Echo", description: "Echoes.",
  parameters: pi.typebox.Type.Object({ text: pi.typebox.Type.String() }),
  async execute(_id: string, params: { text: string }) { return { content: [{ type: "text" as const, text: params.text }] }; } });
`,
  );
});
afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

const SCRIPT = `
import { readdirSync } from "node:fs";
import { join } from "node:path";
const { createToolHarness } = await import(${JSON.stringify(testing)});
const [folder] = process.argv.slice(1);
const cacheDir = join(folder, "cache");
const harness = await createToolHarness({ paths: join(folder, "echo.ts"), cwd: folder, cacheDir });
const answer = await harness.call("echo", { text: "hi" });
await harness.dispose();
const packs = readdirSync(join(cacheDir, "bundles")).filter((name) => name.endsWith(".mjs"));
process.stdout.write(JSON.stringify({ text: answer.content[0].text, packs: packs.length }));
`;

it("harness.dispose() returns once the packs of its cold load are written (Node 24)", {
  timeout: 120_000,
}, async (context) => {
  const node = await testRuntime("node@24", context.skip);
  const run = await runNode(node, ["--input-type=module", "-e", SCRIPT, scratch]);
  expect(JSON.parse(run.stdout)).toEqual({ text: "hi", packs: 1 });
});
