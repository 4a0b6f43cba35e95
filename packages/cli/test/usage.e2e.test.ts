import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, examplesDir, repoRoot, runCli, tempDir } from "./cli-process.js";

const COMMANDS = ["list", "validate", "call", "schema", "init", "demo"];

beforeAll(assertBuilt);

describe("tooldock usage", () => {
  it("--version prints the package version", async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, "packages/cli/package.json"), "utf8"));
    const run = await runCli(["--version"]);
    expect(run).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
  });

  it("--help lists every command", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^ {2}${command} `, "m"));
  });

  it.each(COMMANDS)("%s --help shows its usage and options", async (command) => {
    const run = await runCli([command, "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: tooldock ${command}`);
    expect(run.stdout).toContain("-h, --help");
  });

  it("exits 2 with what was wrong and the usage line", async () => {
    const unknown = await runCli(["lsit"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "lsit"');
    expect(unknown.stderr).toContain("usage: tooldock <list|validate|call|pending|schema|init|demo");
    const option = await runCli(["validate", examplesDir, "--frmat", "json"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("--frmat");
    expect(option.stderr).toContain("usage: tooldock validate");
    expect(option.stdout).toBe("");
    expect((await runCli([])).code).toBe(2);
  });

  it("exits 2 when no path is given and no default exists, saying where it looked", async () => {
    const dir = await tempDir();
    try {
      const run = await runCli(["list"], { cwd: dir.path });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(".tooldock/tools");
    } finally {
      await dir.remove();
    }
  });

  it("loads .tooldock/tools by default", async () => {
    const tool = await readFile(join(examplesDir, "tools/notes.ts"), "utf8");
    const dir = await tempDir({ ".tooldock/tools/notes.ts": tool });
    try {
      const run = await runCli(["list", "--json"], { cwd: dir.path });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).tools.map((entry: { name: string }) => entry.name)).toEqual([
        "note_add",
        "note_list",
        "note_clear",
      ]);
    } finally {
      await dir.remove();
    }
  });

  it("colours only when asked and never with NO_COLOR", async () => {
    const forced = await runCli(["list", examplesDir], { env: { NO_COLOR: "", FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain("\u001b[");
    const both = await runCli(["list", examplesDir], { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
    expect(both.stdout).not.toContain("\u001b[");
  });
});
