import { spawn } from "node:child_process";
import { mkdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, repoRoot, runCli, tempDir } from "./cli-process.js";

/**
 * The scaffold would `npm install` its dependencies from the registry. Here it resolves the
 * workspace's built packages instead: its node_modules links @tooldock/* to packages/* and
 * vitest to the repository's copy, exactly the names its package.json asks for.
 */
async function linkWorkspace(project: string): Promise<void> {
  await mkdir(join(project, "node_modules/@tooldock"), { recursive: true });
  for (const name of ["sdk", "runtime", "loader", "cli"]) {
    await symlink(join(repoRoot, "packages", name), join(project, "node_modules/@tooldock", name), "dir");
  }
  await symlink(join(repoRoot, "node_modules/vitest"), join(project, "node_modules/vitest"), "dir");
}

function runVitest(project: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run"], {
      cwd: project,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

beforeAll(assertBuilt);

describe("tooldock init", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(() => dir.remove());

  it("scaffolds a publishable tool package whose own test passes", async () => {
    const project = join(dir.path, "word-tools");
    const init = await runCli(["init", project]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Created word-tools with tool word_tools");

    const manifest = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
    expect(manifest.tooldock).toEqual({ tools: ["./tools"] });
    expect(Object.keys(manifest.peerDependencies)).toEqual(["@tooldock/sdk"]);
    expect(manifest.files).toContain("tools");

    await linkWorkspace(project);
    const test = await runVitest(project);
    expect(test.output).toContain("4 passed");
    expect(test.code).toBe(0);

    const validate = await runCli(["validate", "--strict"], { cwd: project });
    expect(validate.stdout).toContain("✔ 1 module, 1 tool, 0 errors, 0 warnings");
    expect(validate.code).toBe(0);
  });

  it("takes the tool name from --name", async () => {
    const project = join(dir.path, "pkg");
    expect((await runCli(["init", project, "--name", "wordCount"])).code).toBe(0);
    const tool = await readFile(join(project, "tools/word-count.ts"), "utf8");
    expect(tool).toContain('name: "word_count"');
  });

  it("refuses the reserved name resolve, saying why, and writes nothing", async () => {
    const project = join(dir.path, "pkg");
    const run = await runCli(["init", project, "--name", "resolve"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '"resolve" is reserved: it is the hidden tool that applies or discards pending actions',
    );
    expect(run.stderr).toContain("usage: tooldock init <dir>");
    await expect(readFile(join(project, "package.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a folder that is not empty, with exit 2 and the usage line", async () => {
    const project = join(dir.path, "taken");
    await mkdir(project);
    await runCli(["init", project]);
    const again = await runCli(["init", project]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("is not empty");
    expect(again.stderr).toContain("usage: tooldock init <dir>");
  });
});
