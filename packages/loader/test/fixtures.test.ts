import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DIAGNOSTIC_ERROR_CODES, type Diagnostic } from "@tooldock/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type CompilerName, loadCustomTools } from "../src/index.js";
import { fakeContext, fixturesDir, rewritePaths, testCacheDir } from "./helpers.js";

const compilers: CompilerName[] = ["esbuild", "jiti"];
const codesSeen = new Map<CompilerName, Set<string>>();
const codesByCase = new Map<string, string[]>();

function recordCodes(compiler: CompilerName, diagnostics: Diagnostic[]): void {
  const seen = codesSeen.get(compiler) ?? new Set<string>();
  for (const diagnostic of diagnostics) seen.add(diagnostic.code);
  codesSeen.set(compiler, seen);
}

describe.each(compilers)("fixtures with compiler %s", (compiler) => {
  const cacheDir = testCacheDir(compiler);
  const load = async (
    paths: string[],
    extra: { builtInToolNames?: string[]; factoryTimeoutMs?: number } = {},
  ) => {
    const result = await loadCustomTools({ paths, cwd: fixturesDir, compiler, cacheDir, ...extra });
    recordCodes(compiler, result.diagnostics);
    return result;
  };
  const names = (result: Awaited<ReturnType<typeof load>>) =>
    result.tools.map((loaded) => loaded.tool.name).sort();

  it("loads every kind of valid module in a directory and skips tests, declarations and hidden files", async () => {
    const result = await load(["basic"]);
    expect(result.diagnostics).toEqual([]);
    expect(names(result)).toEqual([
      "array_first",
      "array_second",
      "async_tool",
      "cjs_tool",
      "dependency_reverse",
      "export_equals",
      "meta_url",
      "pi_compat",
      "sibling_shout",
      "throws_at_line_9",
      "typebox_greet",
      "zod_count",
    ]);
    expect(rewritePaths(result.modules.map((module) => module.path))).toMatchSnapshot();
  });

  it("runs the tools it loaded: helpers, installed packages, TypeBox and zod", async () => {
    const result = await load(["basic"]);
    const call = async (name: string, params: unknown) => {
      const loaded = result.tools.find((entry) => entry.tool.name === name);
      if (loaded === undefined) throw new Error(`tool ${name} not loaded`);
      return loaded.tool.execute("call-1", params as never, undefined, fakeContext());
    };
    expect((await call("typebox_greet", { name: "Ada" })).content).toEqual([
      { type: "text", text: "Hello, Ada!" },
    ]);
    expect((await call("zod_count", { count: 3 })).content).toEqual([{ type: "text", text: "count=3" }]);
    expect((await call("async_tool", { value: "x" })).content).toEqual([
      { type: "text", text: "valid=true" },
    ]);
    expect((await call("sibling_shout", { text: "hi" })).content).toEqual([{ type: "text", text: "HI!" }]);
    const reversed = await call("dependency_reverse", { text: "abc" });
    expect(reversed.content).toEqual([{ type: "text", text: "cba" }]);
    // The package was imported from the fixture's own node_modules, not bundled into the cache.
    expect(reversed.details).toEqual({
      origin: pathToFileURL(join(fixturesDir, "basic/with-dependency/node_modules/fixture-dep/index.js"))
        .href,
    });
    expect((await call("export_equals", {})).content).toEqual([{ type: "text", text: "export =" }]);
    expect((await call("pi_compat", {})).content).toEqual([{ type: "text", text: "compat" }]);
  });

  it("keeps import.meta.url, __filename and __dirname pointing at the source", async () => {
    const result = await load(["basic/meta-url.ts", "basic/module-exports.cjs"]);
    const [meta, cjs] = result.tools;
    const metaResult = await meta?.tool.execute("1", {} as never, undefined, fakeContext());
    expect(metaResult?.content).toEqual([{ type: "text", text: join(fixturesDir, "basic/meta-url.ts") }]);
    expect(metaResult?.details).toEqual({ url: pathToFileURL(join(fixturesDir, "basic/meta-url.ts")).href });
    const cjsResult = await cjs?.tool.execute("1", {} as never, undefined, fakeContext());
    expect(cjsResult?.content).toEqual([{ type: "text", text: "module-exports.cjs" }]);
    expect(cjsResult?.details).toEqual({ dirname: join(fixturesDir, "basic") });
  });

  it("hands tools the host's single copies of zod, TypeBox and the SDK", async () => {
    const result = await load(["basic/zod-tool.ts"]);
    const tool = result.tools[0]?.tool;
    expect(tool?.parameters).toBeInstanceOf(z.ZodObject);
    const called = await tool?.execute("1", { count: 2 } as never, undefined, fakeContext());
    expect(called?.details).toEqual({ zod: true, sdk: true, typebox: true });
  });

  it("names the .ts line in stack traces", async () => {
    const result = await load(["basic/throws.ts"]);
    // vitest installs its own Error.prepareStackTrace; a host process uses Node's, which
    // applies the bundle's inline source map. Read the stack the way a host would.
    const vitestPrepare = Error.prepareStackTrace;
    Reflect.deleteProperty(Error, "prepareStackTrace");
    let stack = "";
    try {
      const error = await result.tools[0]?.tool
        .execute("1", {} as never, undefined, fakeContext())
        .catch((thrown: unknown) => thrown);
      stack = String((error as Error).stack);
    } finally {
      if (vitestPrepare !== undefined) Error.prepareStackTrace = vitestPrepare;
    }
    expect(stack).toContain(`${join(fixturesDir, "basic/throws.ts")}:9:`);
  });

  it("loads exactly the entries a package manifest lists (tooldock, omp and pi fields)", async () => {
    const result = await load(["packages/tooldock-field", "packages/omp-field", "packages/pi-field"]);
    expect(result.diagnostics).toEqual([]);
    expect(names(result)).toEqual([
      "pkg_omp_field_tool",
      "pkg_pi_field_tool",
      "pkg_tooldock_field_src_listed",
    ]);
  });

  /**
   * The module's own error as Node 20's V8 words it: newer V8 (Node 22+) adds where
   * `JSON.parse` stopped, "… at position 2 (line 1 column 3)".
   */
  const withoutJsonPosition = (diagnostics: Diagnostic[]) =>
    diagnostics.map((diagnostic) => ({
      ...diagnostic,
      message: diagnostic.message.replace(/( in JSON at position \d+) \(line \d+ column \d+\)/, "$1"),
    }));

  const errorCases: Array<[string, string[], { builtInToolNames?: string[]; factoryTimeoutMs?: number }?]> = [
    ["error-compile", ["error-compile"]],
    ["error-import", ["error-import"]],
    ["error-no-factory", ["error-no-factory"]],
    ["error-factory-throw", ["error-factory-throw"]],
    ["error-factory-timeout", ["error-factory-timeout"], { factoryTimeoutMs: 300 }],
    ["error-process-exit", ["error-process-exit"]],
    ["error-invalid-tool", ["error-invalid-tool"]],
    ["error-invalid-schema", ["error-invalid-schema"]],
    ["error-name-invalid", ["error-name-invalid"], { builtInToolNames: ["read"] }],
    ["error-name-conflict", ["error-name-conflict"]],
    [
      "error-not-executable",
      ["error-not-executable", "error-not-executable/README.md", "error-not-executable/tool.json"],
    ],
    [
      "error-discovery",
      ["error-discovery", "error-discovery/does-not-exist", "error-discovery/bad-manifest"],
    ],
  ];

  it.each(errorCases)("%s: reports diagnostics and still loads the canary", async (fixture, paths, extra) => {
    const result = await load(paths, extra);
    codesByCase.set(
      `${compiler}:${fixture}`,
      result.diagnostics.map((diagnostic) => diagnostic.code),
    );
    const canary = `canary_${fixture.replace("error-", "").replaceAll("-", "_")}`;
    expect(result.tools.map((loaded) => loaded.tool.name)).toContain(canary);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    for (const diagnostic of result.diagnostics) {
      expect(diagnostic.severity).toBe("error");
      expect(diagnostic.hint).toMatch(/\S/);
    }
    expect(withoutJsonPosition(rewritePaths(result.diagnostics))).toMatchSnapshot();
  });

  it("keeps valid siblings of invalid entries and the first claimant of a name", async () => {
    const invalid = await load(["error-invalid-tool"]);
    expect(names(invalid)).toEqual(["canary_invalid_tool", "valid_sibling"]);
    const conflict = await load(["error-name-conflict"]);
    const shared = conflict.tools.filter((loaded) => loaded.tool.name === "shared_name");
    expect(shared.map((loaded) => loaded.path)).toEqual([
      join(fixturesDir, "error-name-conflict/a-first.ts"),
    ]);
    const diagnostic = conflict.diagnostics.find((entry) => entry.code === "E_NAME_CONFLICT");
    expect(diagnostic?.message).toContain(join(fixturesDir, "error-name-conflict/a-first.ts"));
    expect(diagnostic?.message).toContain(join(fixturesDir, "error-name-conflict/b-second.ts"));
  });

  it("warns about a factory that returns no tools", async () => {
    const result = await load(["warning-no-tools"]);
    expect(result.tools).toEqual([]);
    expect(rewritePaths(result.diagnostics)).toEqual([
      {
        code: "W_NO_TOOLS",
        severity: "warning",
        message:
          "The factory of <cwd>/warning-no-tools/empty.ts returned no tools (an empty list): the module loaded but provides none.",
        path: "<cwd>/warning-no-tools/empty.ts",
        hint:
          "Factories often return nothing when they are not configured: check the environment variables or " +
          "settings the module reads (an API key). Otherwise return at least one tool, or remove the module from the tool paths.",
      },
    ]);
  });

  it("points compile errors at the line", async () => {
    const result = await load(["error-compile/broken.ts"]);
    expect(result.diagnostics[0]?.code).toBe("E_COMPILE");
    expect(result.diagnostics[0]?.location).toMatchObject({ line: 4, lineText: "  const value = ;" });
  });

  it("restores process.exit after guarded modules", async () => {
    const before = process.exit;
    await load(["error-process-exit"]);
    expect(process.exit).toBe(before);
  });
});

describe("diagnostic coverage", () => {
  it("both compilers report the same codes for every error fixture", () => {
    const cases = [...codesByCase.keys()].filter((key) => key.startsWith("esbuild:"));
    expect(cases.length).toBe(12);
    for (const key of cases) {
      expect([key, codesByCase.get(key.replace("esbuild:", "jiti:"))]).toEqual([key, codesByCase.get(key)]);
    }
  });

  // E_TOOL_HOST is a fault of an isolated load's process, not of a module's sources: it is
  // produced by the isolation tests (test/regression/isolated-*), never by an in-process fixture.
  // E_NOTHING_TO_VALIDATE is the CLI's (validate found no module), tested with it.
  const ISOLATION_ONLY = new Set(["E_TOOL_HOST", "E_NOTHING_TO_VALIDATE"]);

  it.each(compilers)("the %s fixtures produced every error code", (compiler) => {
    expect([...(codesSeen.get(compiler) ?? [])].filter((code) => code.startsWith("E_")).sort()).toEqual(
      DIAGNOSTIC_ERROR_CODES.filter((code) => !ISOLATION_ONLY.has(code)).sort(),
    );
  });
});
