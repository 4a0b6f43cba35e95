import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { testCacheDir } from "../helpers.js";

/**
 * Failure (real subagent tools, correct code): a tool that runs a TypeScript worker in a child
 * process with `node <pi.jitiCliPath> worker.ts`, as pi's subagent tools do in their async
 * modes. Tooldock's `pi` had no `jitiCliPath`, so the tool started `node undefined …` and
 * failed. Fixed: `pi.jitiCliPath` is the CLI of the jiti Tooldock ships.
 */
const TOOL = `
export default (pi) => ({
  name: "worker",
  label: "Worker",
  description: "Runs a TypeScript worker in a child process.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    const script = new URL("./worker.ts", import.meta.url).pathname;
    const run = await pi.exec(process.execPath, [pi.jitiCliPath, script]);
    return { content: [{ type: "text", text: run.code + ":" + run.stdout.trim() + run.stderr }] };
  },
});
`;
const WORKER = `const answer: number = 6 * 7;\nconsole.log(\`answer \${answer}\`);\n`;

let folder: string | undefined;
let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  harness = undefined;
  folder = undefined;
});

describe("pi.jitiCliPath", () => {
  it("runs a TypeScript worker in a child process", async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), "tooldock-jiti-cli-")));
    await writeFile(join(folder, "worker-tool.mjs"), TOOL);
    await writeFile(join(folder, "worker.ts"), WORKER);
    harness = await createToolHarness({
      paths: join(folder, "worker-tool.mjs"),
      cwd: folder,
      cacheDir: testCacheDir("jiti-cli-path"),
    });
    expect(harness.diagnostics).toEqual([]);
    const result = await harness.call("worker", {});
    expect(result.content).toEqual([{ type: "text", text: "0:answer 42" }]);
  });
});
