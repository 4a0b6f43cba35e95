import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "@tooldock/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, brokenDir, runCli, tempDir } from "./cli-process.js";

const isolateDir = fileURLToPath(new URL("./fixtures/isolate", import.meta.url));
const lintDir = fileURLToPath(new URL("./fixtures/lint-warnings", import.meta.url));
const fileOf = (diagnostic: { path: string }) => diagnostic.path.split(/[\\/]/).at(-1) ?? "";

// Modules that hang or end the process in-process; each gives exactly one error in isolation.
// (A leaked timer may also give the loader's own warning; only errors are counted here.)
const EXPECTED: Record<string, { code: string; message: RegExp }> = {
  "loops-forever.ts": {
    code: "E_FACTORY_TIMEOUT",
    message: /did not finish loading within 1500 ms in isolation/,
  },
  "ignores-sigterm.ts": {
    code: "E_FACTORY_TIMEOUT",
    message: /did not finish loading within 1500 ms in isolation/,
  },
  // Its 50 ms timer fires after the child's load (the process ends) or, on a busy machine,
  // while the batch is still loading (the guard blocks it): one E_PROCESS_EXIT either way.
  "exits-from-timer.ts": {
    code: "E_PROCESS_EXIT",
    message: /loaded, then its process ended .* exited with code 3|called process\.exit\(3\) from a timer/,
  },
  "runs-out-of-memory.ts": { code: "E_PROCESS_EXIT", message: /ran out of memory while loading .*64 MB/ },
  "exits-at-import.ts": { code: "E_PROCESS_EXIT", message: /process\.exit\(4\)/ },
  "same-name.ts": {
    code: "E_NAME_CONFLICT",
    message: /"good_tool" from \S*same-name\.ts is already taken by \S*good\.ts/,
  },
};
const isolateArgs = ["--isolate", "--isolate-timeout", "1500", "--isolate-memory", "64"];

beforeAll(assertBuilt);

describe("tooldock validate --isolate", () => {
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
        code: expected?.code,
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
    const pretty = await runCli(["validate", isolateDir, ...isolateArgs]);
    expect(pretty.code).toBe(1);
    expect(pretty.stdout).toContain("error E_FACTORY_TIMEOUT");
    expect(pretty.stdout).toMatch(/good_tool +Good tool/);
    expect(pretty.stdout).toMatch(/✖ 7 modules, 1 tool, 6 errors, \d+ warnings?/);
    const junit = await runCli(["validate", isolateDir, ...isolateArgs, "--format", "junit"]);
    expect(junit.code).toBe(1);
    expect(junit.stdout.match(/<failure /g)).toHaveLength(6);
  });

  it("reports exactly what in-process validate reports for modules that cannot hang it, --strict lints included", async () => {
    const args = ["validate", brokenDir, lintDir, "--strict", "--format", "json"];
    const env = { TOOLDOCK_FACTORY_TIMEOUT_MS: "500" };
    const [inProcess, isolated] = await Promise.all([
      runCli(args, { env }),
      runCli([...args, "--isolate"], { env }),
    ]);
    expect(inProcess.code).toBe(1);
    expect(isolated.code).toBe(1);
    const report = JSON.parse(isolated.stdout);
    expect(report.summary.warnings).toBeGreaterThan(0);
    expect(report).toEqual(JSON.parse(inProcess.stdout));
  });

  it("compiles into the same cache as in-process loads, so neither recompiles the other's work", async () => {
    const cache = await tempDir();
    try {
      const env = { TOOLDOCK_CACHE_DIR: cache.path };
      const isolated = await runCli(["validate", lintDir, join(isolateDir, "good.ts"), "--isolate"], { env });
      expect(isolated.code).toBe(0);
      // A child loads one module, so it writes no pack; the in-process run may add a pack of
      // the two bundles, but builds no bundle again.
      const bundles = async () =>
        (await readdir(join(cache.path, "bundles"))).filter((name) => !name.startsWith("pack-")).sort();
      const isolatedBundles = await bundles();
      expect(isolatedBundles.filter((name) => name.endsWith(".mjs"))).toHaveLength(2);
      const inProcess = await runCli(["validate", lintDir, join(isolateDir, "good.ts")], { env });
      expect(inProcess.code).toBe(0);
      expect(await bundles()).toEqual(isolatedBundles);
    } finally {
      await cache.remove();
    }
  });

  it("documents --isolate in --help and refuses its options without it or with a bad value", async () => {
    const help = await runCli(["validate", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--isolate-timeout MS");
    expect(help.stdout).toContain("--isolate-memory MB");
    const without = await runCli(["validate", isolateDir, "--isolate-timeout", "1500"]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("--isolate-timeout needs --isolate");
    const bad = await runCli(["validate", isolateDir, "--isolate", "--isolate-timeout", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--isolate-timeout must be a positive whole number (got "soon")');
    const badEnv = await runCli(["validate", isolateDir, "--isolate"], {
      env: { TOOLDOCK_ISOLATE_TIMEOUT_MS: "-1" },
    });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("TOOLDOCK_ISOLATE_TIMEOUT_MS must be a positive whole number");
  });
});
