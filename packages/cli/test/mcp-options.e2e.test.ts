// End to end: the BUILT `tooldock mcp` with `--cwd` and `--pending-policy`, over real stdio
// with the SDK's client. Build first: `pnpm build`.
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, examplesDir, runCli, tempDir, WHERE_TOOL } from "./cli-process.js";
import { startMcpChild } from "./mcp-child.js";
import { textOf } from "./mcp-in-memory.js";

const renameTool = join(examplesDir, "tools/batch-rename-preview.ts");
const statsTool = join(examplesDir, "tools/text-stats.ts");
const renameArgs = { files: ["draft-a.txt"], find: "draft", replace: "final", regex: false };
const statsArgs = { path: "draft-a.txt", top: 1, caseSensitive: false };

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(args: string[], cwd: string) {
  const child = await startMcpChild(args, cwd);
  cleanups.push(async () => {
    child.kill();
    await child.exited;
  });
  return child;
}

describe("tooldock mcp --cwd and --pending-policy", () => {
  it("--cwd serves from another folder: paths, the session and the tools work there", async () => {
    const work = await tempDir({
      "project/draft-a.txt": "hello hello",
      "project/tools/where.mjs": WHERE_TOOL,
    });
    cleanups.push(work.remove);
    const elsewhere = join(work.path, "elsewhere");
    await mkdir(elsewhere);
    const { client } = await serve(["--cwd", "../project", "tools/where.mjs", renameTool], elsewhere);
    expect(textOf(await client.callTool({ name: "where", arguments: {} }))).toBe(join(work.path, "project"));
    const staged = await client.callTool({ name: "batch_rename_preview", arguments: renameArgs });
    expect(staged.isError).toBeFalsy();
    await client.callTool({ name: "resolve", arguments: { action: "apply", reason: "ok" } });
    expect(await readdir(join(work.path, "project"))).toEqual(["final-a.txt", "tools"]);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it("--cwd that is not a folder is bad usage, naming it", async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const run = await runCli(["mcp", "--cwd", "missing", renameTool], { cwd: work.path });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--cwd missing: ${join(work.path, "missing")} is not a folder`);
    expect(run.stdout).toBe("");
  });

  it("--pending-policy allow lets another tool run while a preview is pending; block (default) refuses it", async () => {
    const work = await tempDir({ "draft-a.txt": "hello hello" });
    cleanups.push(work.remove);
    const allowing = await serve(["--pending-policy", "allow", renameTool, statsTool], work.path);
    await allowing.client.callTool({ name: "batch_rename_preview", arguments: renameArgs });
    const allowed = await allowing.client.callTool({ name: "text_stats", arguments: statsArgs });
    expect(allowed.isError).toBeFalsy();
    expect(textOf(allowed)).toContain("hello");

    const blocking = await serve([renameTool, statsTool], work.path);
    await blocking.client.callTool({ name: "batch_rename_preview", arguments: renameArgs });
    const refused = await blocking.client.callTool({ name: "text_stats", arguments: statsArgs });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("resolve");
  });

  it("rejects another --pending-policy value as bad usage", async () => {
    const run = await runCli(["mcp", "--pending-policy", "maybe", renameTool]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--pending-policy must be one of block, allow");
  });
});
