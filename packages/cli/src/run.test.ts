import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { memoryIo } from "../test/memory-io.js";
import { run } from "./run.js";

describe("run (in-process)", () => {
  it("prints the version and exits 0", async () => {
    const memory = memoryIo(process.cwd());
    expect(await run(["--version"], memory.io)).toBe(0);
    expect(memory.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("prints help for `help <command>` like `<command> --help`", async () => {
    const viaHelp = memoryIo(process.cwd());
    const viaFlag = memoryIo(process.cwd());
    expect(await run(["help", "validate"], viaHelp.io)).toBe(0);
    expect(await run(["validate", "-h"], viaFlag.io)).toBe(0);
    expect(viaHelp.stdout()).toBe(viaFlag.stdout());
    expect(viaHelp.stdout()).toContain("--format FORMAT");
  });

  it("reports bad usage on stderr with the usage line and exits 2, printing nothing on stdout", async () => {
    const memory = memoryIo(process.cwd());
    expect(await run(["validate", "--format", "xml"], memory.io)).toBe(2);
    expect(memory.stdout()).toBe("");
    expect(memory.stderr().split("\n").slice(0, 2)).toEqual([
      'tooldock: --format must be one of pretty, json, junit (got "xml")',
      "usage: tooldock validate [paths…] [--tools PATH]… [--opencode] [--format pretty|json|junit] [--output FILE] [--strict] [--isolate | --no-isolate] [--allow-read PATH]… [--allow-write PATH]… [--allow-exec] [--allow-net] [--allow-env NAME]… [--isolate-memory MB] [--isolate-timeout MS]",
    ]);
  });

  it("treats a missing or unknown command as bad usage", async () => {
    const missing = memoryIo(process.cwd());
    expect(await run([], missing.io)).toBe(2);
    expect(missing.stderr()).toContain("missing command");
    const unknown = memoryIo(process.cwd());
    expect(await run(["frobnicate"], unknown.io)).toBe(2);
    expect(unknown.stderr()).toContain(
      'unknown command "frobnicate" (commands: list, validate, call, pending, schema, init, demo',
    );
  });

  it("shows a progress line on a terminal's stderr while modules load, then erases it", async () => {
    const memory = memoryIo(process.cwd());
    const stderr: string[] = [];
    memory.io.stderr = { write: (chunk: string) => stderr.push(chunk), isTTY: true, columns: 120 };
    memory.io.env = { NO_COLOR: "1" };
    const examples = fileURLToPath(new URL("../../examples", import.meta.url));
    expect(await run(["list", examples], memory.io)).toBe(0);
    const lines = stderr.filter((chunk) => chunk.includes("loaded"));
    expect(lines).toHaveLength(5);
    // Discovery is streamed (docs/contract.md §5): the total is what was found so far, so the
    // first line may say [1/3]; the last one counts them all.
    const clearLine = "\r\u001b[2K";
    expect(lines.every((line) => line.startsWith(clearLine))).toBe(true);
    expect(lines[0]?.slice(clearLine.length)).toMatch(/^\[1\/[1-5]\] loaded /);
    expect(lines.at(-1)?.slice(clearLine.length)).toMatch(/^\[5\/5\] loaded /);
    expect(stderr.at(-1)).toBe("\r\u001b[2K");
    expect(memory.stdout()).toContain("batch_rename_preview");
  });

  it("turns an unexpected fault into exit 2 with the error on stderr", async () => {
    const memory = memoryIo(process.cwd());
    memory.io.stdout = {
      write: () => {
        throw new Error("stdout is gone");
      },
    };
    expect(await run(["--version"], memory.io)).toBe(2);
    expect(memory.stderr()).toContain("tooldock: internal error: Error: stdout is gone");
  });

  it("scaffolds with init relative to the io's cwd", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "tooldock-run-"));
    try {
      const memory = memoryIo(cwd);
      expect(await run(["init", "my-tools"], memory.io)).toBe(0);
      expect((await readdir(join(cwd, "my-tools"))).sort()).toEqual([
        ".gitignore",
        "README.md",
        "package.json",
        "test",
        "tools",
        "tsconfig.json",
      ]);
      expect(memory.stdout()).toContain("Created my-tools with tool my_tools in my-tools");
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
