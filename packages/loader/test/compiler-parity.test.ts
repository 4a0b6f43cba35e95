import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic, DiagnosticErrorCode } from "@tooldock/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { type CompilerName, loadCustomTools } from "../src/index.js";
import { fakeContext, fixturesDir, testCacheDir } from "./helpers.js";

// Issue 14, item 9: the same fault gives the same diagnostic on both compilers. Each row is one
// fault, one fixture folder under fixtures/compiler-parity/<fault>/ (its entry is the
// `index.*` file). The row loads it with esbuild and with jiti and requires the code the
// loader README's diagnostics table gives that fault, and the same severity, hint, location
// (line, column, source line) and file on both. Faults that are not faults (a type error,
// `import.meta`) must load on both, and their tool must answer the same.

const parityDir = join(fixturesDir, "compiler-parity");
const compilers: CompilerName[] = ["esbuild", "jiti"];
const cacheDirs = new Map(compilers.map((compiler) => [compiler, testCacheDir(`parity-${compiler}`)]));

interface ParityRow {
  /** The fixture folder. */
  fault: string;
  /** The diagnostic code both compilers give, or `loads` when the module must load. */
  expected: DiagnosticErrorCode | "loads";
  /** Where the fault is: file (relative to the fixture folder), 1-based line and column. */
  at?: { file: string; line: number; column: number };
  /** What the hint must say. */
  hint?: RegExp;
  /** What the message must say, on both compilers (where it is the loader's own wording). */
  message?: string;
}

const RESOLVE_HINT = /fix the import path/i;
const EXPORT_HINT = /does not export/i;

const rows: ParityRow[] = [
  { fault: "syntax-error", expected: "E_COMPILE", at: { file: "index.ts", line: 3, column: 16 } },
  { fault: "syntax-error-in-helper", expected: "E_COMPILE", at: { file: "helper.ts", line: 2, column: 24 } },
  {
    fault: "syntax-error-after-unicode",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 4, column: 39 },
  },
  { fault: "types-in-js", expected: "E_COMPILE", at: { file: "index.js", line: 1, column: 12 } },
  { fault: "duplicate-declaration", expected: "E_COMPILE", at: { file: "index.ts", line: 4, column: 5 } },
  { fault: "legacy-octal", expected: "E_COMPILE", at: { file: "index.ts", line: 3, column: 14 } },
  { fault: "with-statement", expected: "E_COMPILE", at: { file: "index.ts", line: 5, column: 1 } },
  { fault: "type-error-only", expected: "loads" },
  { fault: "import-meta", expected: "loads" },
  { fault: "names-that-are-not-faults", expected: "loads" },
  { fault: "types-from-missing-modules", expected: "loads" },
  { fault: "reexport-missing-name", expected: "loads" },
  {
    fault: "missing-relative-import",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 24 },
    hint: RESOLVE_HINT,
  },
  {
    fault: "missing-import-in-helper",
    expected: "E_COMPILE",
    at: { file: "helper.ts", line: 1, column: 24 },
    hint: RESOLVE_HINT,
  },
  {
    fault: "dynamic-import-missing",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 3, column: 29 },
    hint: RESOLVE_HINT,
  },
  { fault: "dynamic-import-missing-in-factory", expected: "E_FACTORY_THROW" },
  { fault: "optional-dynamic-import", expected: "loads" },
  {
    fault: "missing-package",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 24 },
    hint: /Install "tooldock-parity-package-that-does-not-exist"/,
  },
  {
    fault: "require-missing-package",
    expected: "E_COMPILE",
    at: { file: "index.cjs", line: 1, column: 25 },
    hint: /Install "tooldock-parity-package-that-does-not-exist"/,
  },
  {
    fault: "missing-named-export",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 10 },
    hint: EXPORT_HINT,
  },
  {
    fault: "missing-default-export",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 8 },
    hint: EXPORT_HINT,
  },
  {
    fault: "missing-host-export",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 10 },
    hint: EXPORT_HINT,
  },
  {
    fault: "missing-builtin-export",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 10 },
    hint: EXPORT_HINT,
  },
  { fault: "malformed-json", expected: "E_COMPILE", at: { file: "data.json", line: 3, column: 13 } },
  {
    fault: "unknown-builtin",
    expected: "E_COMPILE",
    at: { file: "index.ts", line: 2, column: 22 },
    hint: /"node:nope" is not a built-in module/,
  },
  { fault: "top-level-throw", expected: "E_IMPORT" },
  { fault: "helper-throws", expected: "E_IMPORT" },
  { fault: "top-level-await-rejects", expected: "E_IMPORT" },
  { fault: "cts-throws", expected: "E_IMPORT" },
  {
    fault: "await-in-commonjs",
    expected: "E_COMPILE",
    at: { file: "index.cts", line: 1, column: 23 },
    hint: /Fix the error at the location shown/,
  },
  { fault: "circular-uninitialised", expected: "E_IMPORT" },
  {
    fault: "default-not-function",
    expected: "E_NO_FACTORY",
    message: "exports no tool factory: its default export is an object.",
  },
  {
    fault: "named-exports-only",
    expected: "E_NO_FACTORY",
    message: "exports no tool factory: it has no default export (exports: factory, version).",
  },
];

/** What must agree between the compilers: everything but the compiler's own wording. */
function comparable(diagnostic: Diagnostic) {
  const file = /\((\/[^()]+):\d+:\d+\)\.$/.exec(diagnostic.message)?.[1];
  return {
    code: diagnostic.code,
    severity: diagnostic.severity,
    path: diagnostic.path,
    hint: diagnostic.hint,
    location: diagnostic.location,
    file: file?.slice(parityDir.length + 1),
  };
}

async function loadFault(fault: string, compiler: CompilerName) {
  const folder = join(parityDir, fault);
  const entry = readdirSync(folder).find((name) => name.startsWith("index.")) as string;
  const result = await loadCustomTools({
    paths: [join(folder, entry)],
    cwd: fixturesDir,
    compiler,
    cacheDir: cacheDirs.get(compiler) as string,
    factoryTimeoutMs: 5000,
  });
  // On Node 22.15+ esbuild writes the packs after the load: done before the folder is removed.
  await result.cached;
  const answers: unknown[] = [];
  for (const { tool } of result.tools)
    answers.push(await tool.execute("parity", {}, undefined, fakeContext()));
  const messages = result.diagnostics.map((diagnostic) => diagnostic.message);
  return { diagnostics: result.diagnostics.map(comparable), messages, answers, entry };
}

describe("the same fault gives the same diagnostic on esbuild and jiti", () => {
  afterAll(async () => {
    const { rm } = await import("node:fs/promises");
    for (const dir of cacheDirs.values()) await rm(dir, { recursive: true, force: true });
  });

  it("covers every fixture folder and at least a dozen faults", () => {
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(rows.map((row) => row.fault).sort()).toEqual(readdirSync(parityDir).sort());
  });

  it.each(rows)("$fault: $expected", async ({ fault, expected, at, hint, message }) => {
    const [esbuild, jiti] = [await loadFault(fault, "esbuild"), await loadFault(fault, "jiti")];
    expect(jiti.diagnostics).toEqual(esbuild.diagnostics);
    if (expected === "loads") {
      expect(esbuild.diagnostics).toEqual([]);
      expect(esbuild.answers).toHaveLength(1);
      expect(jiti.answers).toEqual(esbuild.answers);
      return;
    }
    expect(esbuild.diagnostics).toHaveLength(1);
    const [diagnostic] = esbuild.diagnostics;
    expect(diagnostic).toMatchObject({
      code: expected,
      severity: "error",
      path: join(parityDir, fault, esbuild.entry),
    });
    if (at !== undefined) {
      expect(diagnostic?.file).toBe(join(fault, at.file));
      expect(diagnostic?.location).toMatchObject({ line: at.line, column: at.column });
    }
    if (hint !== undefined) expect(diagnostic?.hint).toMatch(hint);
    if (message !== undefined) {
      expect(esbuild.messages[0]).toContain(message);
      expect(jiti.messages[0]).toContain(message);
    }
  });
});

describe("a known difference between the compilers (loader README, Compilation, Parity)", () => {
  it("a name an installed ES module package lacks: E_COMPILE at the import under esbuild, undefined under jiti", async () => {
    const entry = join(fixturesDir, "compiler-parity-limits", "package-missing-export", "index.ts");
    const load = (compiler: CompilerName) =>
      loadCustomTools({
        paths: [entry],
        cwd: fixturesDir,
        compiler,
        cacheDir: cacheDirs.get(compiler) as string,
      });
    const esbuild = await load("esbuild");
    expect(esbuild.diagnostics).toMatchObject([
      {
        code: "E_COMPILE",
        message: expect.stringContaining('No matching export in "parity-esm-package" for import "absent"'),
        location: { line: 2, column: 10 },
      },
    ]);
    const jiti = await load("jiti");
    expect(jiti.diagnostics).toEqual([]);
    const result = await jiti.tools[0]?.tool.execute("limit", {}, undefined, fakeContext());
    expect(result?.content[0]).toMatchObject({ text: "present undefined" });
  });
});
