import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, examplesDir, runCli, tempDir } from "./cli-process.js";

const renameArgs = JSON.stringify({
  files: ["draft-a.md", "draft-b.md"],
  find: "draft-",
  replace: "final-",
  regex: false,
});

beforeAll(assertBuilt);

describe("tooldock call", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const files = async () => (await readdir(dir.path)).sort();

  beforeEach(async () => {
    dir = await tempDir({ "draft-a.md": "a", "draft-b.md": "b" });
  });

  afterEach(() => dir.remove());

  it("previews, shows the pending stack and the steering, and renames nothing", async () => {
    const run = await runCli(["call", "batch_rename_preview", examplesDir, "--args", renameArgs], {
      cwd: dir.path,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("draft-a.md → final-a.md");
    expect(run.stdout).toContain("Pending actions (1, top first");
    expect(run.stdout).toContain('Rename 2 files: "draft-" → "final-"');
    expect(run.stdout).toContain("tool choice forced to resolve");
    expect(run.stdout).toContain("Run again with --apply or --discard");
    expect(await files()).toEqual(["draft-a.md", "draft-b.md"]);
  });

  it("prints { result, pending, resolved } with --json", async () => {
    const run = await runCli(["call", "batch_rename_preview", examplesDir, "--args", renameArgs, "--json"], {
      cwd: dir.path,
    });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual(["result", "pending", "resolved"]);
    expect(output.pending).toEqual([
      {
        id: expect.any(String),
        label: 'Rename 2 files: "draft-" → "final-"',
        sourceToolName: "batch_rename_preview",
      },
    ]);
    expect(output.resolved).toEqual([]);
    expect(await files()).toEqual(["draft-a.md", "draft-b.md"]);
  });

  it("renames for real with --apply", async () => {
    const run = await runCli(
      [
        "call",
        "batch_rename_preview",
        examplesDir,
        "--args",
        renameArgs,
        "--apply",
        "--reason",
        "ship it",
        "--json",
      ],
      { cwd: dir.path },
    );
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output.pending).toEqual([]);
    expect(output.resolved).toHaveLength(1);
    expect(output.resolved[0].isError).toBeFalsy();
    expect(output.resolved[0].details).toMatchObject({
      action: "apply",
      reason: "ship it",
      sourceToolName: "batch_rename_preview",
    });
    expect(await files()).toEqual(["final-a.md", "final-b.md"]);
  });

  it("renames nothing with --discard", async () => {
    const run = await runCli(
      ["call", "batch_rename_preview", examplesDir, "--args", renameArgs, "--discard"],
      { cwd: dir.path },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("No file was renamed");
    expect(await files()).toEqual(["draft-a.md", "draft-b.md"]);
  });

  it("runs the built-in ast_edit: a preview changes nothing, --apply writes", async () => {
    const source = 'console.log("hi");\n';
    await writeFile(join(dir.path, "app.ts"), source);
    const args = JSON.stringify({
      ops: [{ pat: "console.log($$$A)", out: "logger.info($$$A)" }],
      path: "app.ts",
    });
    const preview = await runCli(["call", "ast_edit", examplesDir, "--args", args], { cwd: dir.path });
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain("AST Edit: 1 replacement in 1 file");
    expect(await readFile(join(dir.path, "app.ts"), "utf8")).toBe(source);
    const applied = await runCli(["call", "ast_edit", examplesDir, "--args", args, "--apply"], {
      cwd: dir.path,
    });
    expect(applied.code).toBe(0);
    expect(await readFile(join(dir.path, "app.ts"), "utf8")).toBe('logger.info("hi");\n');
  });

  it("exits 1 on a tool error result (invalid arguments, unknown tool)", async () => {
    const invalid = await runCli(["call", "batch_rename_preview", examplesDir, "--args", '{"files":[]}'], {
      cwd: dir.path,
    });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain("(error)");
    const unknown = await runCli(["call", "no_such_tool", examplesDir, "--json"], { cwd: dir.path });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).result.isError).toBe(true);
    expect(JSON.parse(unknown.stdout).result.content[0].text).toContain("batch_rename_preview");
  });

  it("streams progress to stderr while the tool runs", async () => {
    const args = JSON.stringify({
      commands: [{ command: process.execPath, args: ["-e", "1"] }],
      timeoutMs: 60000,
    });
    const run = await runCli(["call", "run_commands", examplesDir, "--args", args], { cwd: dir.path });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("[1/1] ok:");
  });

  it("exits 2 with the usage line on bad --args or --apply with --discard", async () => {
    const badJson = await runCli(["call", "batch_rename_preview", examplesDir, "--args", "{files"], {
      cwd: dir.path,
    });
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain("--args is not valid JSON");
    expect(badJson.stderr).toContain("usage: tooldock call <tool>");
    const both = await runCli(["call", "batch_rename_preview", examplesDir, "--apply", "--discard"], {
      cwd: dir.path,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--apply and --discard exclude each other");
  });
});
