import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "@tooldock/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, brokenDir, runCli, tempDir } from "./cli-process.js";

const isolateDir = fileURLToPath(new URL("./fixtures/isolate", import.meta.url));
const lintDir = fileURLToPath(new URL("./fixtures/lint-warnings", import.meta.url));
const fileOf = (diagnostic: { path: string }) => diagnostic.path.split(/[\\/]/).at(-1) ?? "";

// Modules that hang or end the process in-process; each gives exactly one error in its tool host.
// (A leaked timer may also give the loader's own warning; only errors are counted here.)
const EXPECTED: Record<string, { code: RegExp; message: RegExp }> = {
  "loops-forever.ts": {
    code: /^E_TOOL_HOST$/,
    message: /stopped before it reported its tools\. It did not load its modules within 5000 ms/,
  },
  "ignores-sigterm.ts": {
    code: /^E_TOOL_HOST$/,
    message: /stopped before it reported its tools\. It did not load its modules within 5000 ms/,
  },
  // Its 50 ms timer fires after the tool host reported the module (the process ends) or, on a
  // busy machine, while the module is still loading (the loader's guard blocks it).
  "exits-from-timer.ts": {
    code: /^E_TOOL_HOST$|^E_PROCESS_EXIT$/,
    message:
      /loaded, then its tool host .*stopped: It exited with code 3|called process\.exit\(3\) from a timer/,
  },
  "runs-out-of-memory.ts": { code: /^E_TOOL_HOST$/, message: /It ran out of memory/ },
  "exits-at-import.ts": { code: /^E_PROCESS_EXIT$/, message: /process\.exit\(4\)/ },
  "same-name.ts": {
    code: /^E_NAME_CONFLICT$/,
    message: /"good_tool" from \S*same-name\.ts is already taken by \S*good\.ts/,
  },
};
// No --isolate: validate isolates by default.
const isolateArgs = ["--isolate-timeout", "5000", "--isolate-memory", "64"];

beforeAll(assertBuilt);

describe("tooldock validate (isolated by default)", () => {
  it("turns a hang, a timer exit, running out of memory and an exit at import into one diagnostic each", async () => {
    const run = await runCli(["validate", isolateDir, ...isolateArgs, "--format", "json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    const errors = (report.diagnostics as Diagnostic[]).filter(
      (diagnostic) => diagnostic.severity === "error",
    );
    expect(errors.map(fileOf).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const diagnostic of errors) {
      const expected = EXPECTED[fileOf(diagnostic)];
      expect({ file: fileOf(diagnostic), code: diagnostic.code }).toEqual({
        file: fileOf(diagnostic),
        code: expect.stringMatching(expected?.code ?? /never/),
      });
      expect(diagnostic.message).toMatch(expected?.message ?? /never/);
      expect(diagnostic.hint).toBeTruthy();
    }
    expect(report.tools.map((tool: { name: string; path: string }) => [tool.name, fileOf(tool)])).toEqual([
      ["good_tool", "good.ts"],
    ]);
    expect(report.summary).toMatchObject({ modules: 7, tools: 1, errors: 6 });
  });

  it("prints the pretty and JUnit reports from the isolated load", async () => {
    // One isolated load for both: --output gets the JUnit report, stdout the pretty one.
    const reports = await tempDir();
    try {
      const junitFile = join(reports.path, "tooldock.xml");
      const pretty = await runCli([
        "validate",
        isolateDir,
        ...isolateArgs,
        "--format",
        "junit",
        "--output",
        junitFile,
      ]);
      expect(pretty.code).toBe(1);
      expect(pretty.stdout).toContain("error E_TOOL_HOST");
      expect(pretty.stdout).toMatch(/good_tool +Good tool/);
      expect(pretty.stdout).toMatch(/✖ 7 modules, 1 tool, 6 errors, \d+ warnings?/);
      expect(pretty.stdout).toContain(`junit report written to ${junitFile}`);
      const junit = await readFile(junitFile, "utf8");
      expect(junit).toMatch(/^<\?xml /);
      expect(junit.match(/<failure /g)).toHaveLength(6);
    } finally {
      await reports.remove();
    }
  });

  it("reports exactly what in-process validate reports for modules that cannot hang it, --strict lints included", async () => {
    const args = ["validate", brokenDir, lintDir, "--strict", "--format", "json"];
    const env = { TOOLDOCK_FACTORY_TIMEOUT_MS: "500" };
    const [inProcess, isolated] = await Promise.all([
      runCli([...args, "--no-isolate"], { env }),
      runCli(args, { env }),
    ]);
    expect(inProcess.code).toBe(1);
    expect(isolated.code).toBe(1);
    const report = JSON.parse(isolated.stdout);
    expect(report.summary.warnings).toBeGreaterThan(0);
    // The tool host compiles with jiti, the CLI's process with esbuild: their syntax errors are
    // worded differently (same code, place and line).
    const compileWording = (document: { diagnostics: Array<{ code: string; message?: string }> }) => ({
      ...document,
      diagnostics: document.diagnostics.map((diagnostic) =>
        diagnostic.code === "E_COMPILE" ? { ...diagnostic, message: "(compiler's wording)" } : diagnostic,
      ),
    });
    expect(compileWording(report)).toEqual(compileWording(JSON.parse(inProcess.stdout)));
  });

  it("compiles in the tool host's own folders of the compile cache", async () => {
    const cache = await tempDir();
    try {
      const env = { TOOLDOCK_CACHE_DIR: cache.path };
      const isolated = await runCli(["validate", lintDir, join(isolateDir, "good.ts")], { env });
      expect(isolated.code).toBe(0);
      // The tool host's own folder, and the packs the CLI built for it (read only there).
      expect((await readdir(cache.path)).sort()).toEqual(["tool-host", "tool-host-packs"]);
    } finally {
      await cache.remove();
    }
  });

  it("documents isolation in --help and refuses its options with --no-isolate or with a bad value", async () => {
    const help = await runCli(["validate", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of [
      "--no-isolate",
      "--allow-read PATH",
      "--allow-write PATH",
      "--allow-exec",
      "--isolate-timeout MS",
      "--isolate-memory MB",
    ])
      expect(help.stdout).toContain(flag);
    const without = await runCli(["validate", isolateDir, "--no-isolate", "--isolate-timeout", "1500"]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("--isolate-timeout needs isolation; drop --no-isolate");
    const both = await runCli(["validate", isolateDir, "--no-isolate", "--isolate"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--isolate and --no-isolate exclude each other");
    const bad = await runCli(["validate", isolateDir, "--isolate-timeout", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--isolate-timeout must be a positive whole number (got "soon")');
    const badEnv = await runCli(["validate", isolateDir], { env: { TOOLDOCK_ISOLATE_TIMEOUT_MS: "-1" } });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("TOOLDOCK_ISOLATE_TIMEOUT_MS must be a positive whole number");
    const typo = await runCli(["list", isolateDir, "--allow-reed", "x"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("--allow-read");
    const list = await runCli(["list", isolateDir, "--allow-exec"]);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain("--allow-exec needs --isolate");
  });
});
