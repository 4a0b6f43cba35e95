import { execFile, spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { promisify } from "node:util";
import { Session } from "@tooldock/runtime";
import type { Diagnostic } from "@tooldock/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiscoveryFileSystem, nodeDiscoveryFileSystem } from "../src/discover/file-system.js";
import { type CompilerName, loadCustomTools, ToolHost } from "../src/index.js";
import { testCacheDir } from "./helpers.js";
import {
  corpusDir,
  type PreparedCorpus,
  type PreparedCorpusCase,
  prepareCorpus,
  readCorpusCases,
} from "./prepare-corpus.mjs";

// The broken-module corpus (issue 7): each case folder under test/corpus/ holds one fault and
// declares the diagnostic it must produce in expected.json. Every case is loaded beside a
// canary module, with both compilers; the canary must load and run through a Session, the
// case must produce exactly its expected diagnostic, and the process must come out unharmed.

const compilers: CompilerName[] = ["esbuild", "jiti"];
const cases = await readCorpusCases();
const canaryPath = join(import.meta.dirname, "corpus-canary.ts");
/** Bounded so the never-settling cases stay fast; no assertion depends on timing. */
const factoryTimeoutMs = 400;
const families = ["compile", "import", "factory", "names", "fs", "tampering"];
const unprivilegedScript = join(import.meta.dirname, "load-unprivileged.mjs");

describe("the corpus", () => {
  it("has at least 40 cases, each in a known family and listed in the corpus README", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(join(corpusDir, "README.md"), "utf8");
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const { id, expected } of cases) {
      expect(families).toContain(id.split("-")[0]);
      expect(expected.code).toMatch(/^(E|W)_[A-Z_]+$/);
      expect(expected.severity).toBe(expected.code.startsWith("W_") ? "warning" : "error");
      expect(readme).toContain(`\`${id}\``);
    }
    for (const family of families) expect(cases.some(({ id }) => id.startsWith(`${family}-`))).toBe(true);
  });
});

describe.each(compilers)("the corpus with compiler %s", (compiler) => {
  const cacheDir = testCacheDir(`corpus-${compiler}`);
  let prepared: PreparedCorpus;

  beforeAll(async () => {
    prepared = await prepareCorpus(join(testCacheDir(`corpus-copy-${compiler}`), "corpus"));
  });
  afterAll(async () => {
    await prepared?.cleanup();
  });

  it.for(cases.map(({ id }) => id))("%s", async (id, context) => {
    const entry = prepared.cases.find((candidate) => candidate.id === id) as PreparedCorpusCase;
    if (entry.skipped !== undefined) {
      // Covered by "unreadable paths, loaded by an unprivileged child" below where setpriv works.
      console.warn(`[corpus] ${id} (${compiler}) skipped: ${entry.skipped}`);
      context.skip(entry.skipped);
      return;
    }
    const { expected } = entry;
    const before = { exit: process.exit, emit: process.emit, exitCode: process.exitCode };

    const host = new ToolHost({ cwd: prepared.root });
    const session = new Session({ cwd: prepared.root });
    const result = await loadCustomTools({
      paths: [entry.dir, canaryPath],
      cwd: prepared.root,
      compiler,
      cacheDir,
      host,
      session,
      builtInToolNames: ["ast_edit"],
      factoryTimeoutMs,
      fileSystem:
        entry.removeDuringScan === undefined ? undefined : removingAfterListing(entry.removeDuringScan),
    });

    try {
      // The case: exactly its expected diagnostic, about one of its own files.
      const own = result.diagnostics.filter((diagnostic) => diagnostic.path !== canaryPath);
      expect(own.length + diagnosticsOf(result.diagnostics, canaryPath).length).toBe(
        result.diagnostics.length,
      );
      const errors = own.filter((diagnostic) => diagnostic.severity === "error");
      const matching = own.filter((diagnostic) => diagnostic.code === expected.code);
      if (expected.severity === "error")
        expect(errors.map((diagnostic) => diagnostic.code)).toEqual([expected.code]);
      else expect(errors).toEqual([]);
      expect(matching).toHaveLength(1);
      const [diagnostic] = matching as [Diagnostic];
      expect(diagnostic.severity).toBe(expected.severity);
      expect(diagnostic.path.startsWith(`${entry.dir}${sep}`)).toBe(true);
      if (expected.module !== undefined) expect(diagnostic.path).toBe(join(entry.dir, expected.module));
      expect(diagnostic.message).toContain(diagnostic.path); // names the module
      expect(diagnostic.hint).toMatch(/\S/);
      expect(JSON.stringify(diagnostic).length).toBeLessThan(2000);

      // The canary, and only the tools the case keeps, loaded; the canary runs.
      expect(diagnosticsOf(result.diagnostics, canaryPath)).toEqual([]);
      expect(result.tools.map((loaded) => loaded.tool.name).sort()).toEqual(
        [...(expected.keptTools ?? []), "corpus_canary"].sort(),
      );
      const called = await session.execute({ toolCallId: `canary-${id}`, name: "corpus_canary", params: {} });
      expect(called.isError).toBeFalsy();
      expect(called.content).toEqual([{ type: "text", text: "alive" }]);

      // The process is unharmed: its exit and event functions are its own again, no exit code set.
      expect(process.exit).toBe(before.exit);
      expect(process.emit).toBe(before.emit);
      expect(process.exitCode).toBe(before.exitCode);

      caseSpecificChecks(id, diagnostic, prepared);
    } finally {
      await session.dispose();
      clearLeakedInterval();
      removeExitListener();
    }
  });
});

describe.each(compilers)("the whole corpus in one batch with compiler %s", (compiler) => {
  it("reports each case's diagnostic about its own files, and the canary still runs", async () => {
    const prepared = await prepareCorpus(join(testCacheDir(`corpus-batch-${compiler}`), "corpus"));
    const session = new Session({ cwd: prepared.root });
    const before = { exit: process.exit, emit: process.emit };
    try {
      const result = await loadCustomTools({
        paths: [prepared.root, canaryPath],
        cwd: prepared.root,
        compiler,
        cacheDir: testCacheDir(`corpus-batch-${compiler}`),
        session,
        builtInToolNames: ["ast_edit"],
        factoryTimeoutMs,
      });
      for (const entry of prepared.cases) {
        if (entry.skipped !== undefined || entry.removeDuringScan !== undefined) continue;
        const own = result.diagnostics.filter((diagnostic) =>
          diagnostic.path.startsWith(`${entry.dir}${sep}`),
        );
        const errors = own.filter((diagnostic) => diagnostic.severity === "error").map((d) => d.code);
        const warnings = own.filter((diagnostic) => diagnostic.severity === "warning").map((d) => d.code);
        if (entry.expected.severity === "error")
          expect([entry.id, errors]).toEqual([entry.id, [entry.expected.code]]);
        else expect([entry.id, errors, warnings]).toEqual([entry.id, [], [entry.expected.code]]);
      }
      const called = await session.execute({ toolCallId: "canary", name: "corpus_canary", params: {} });
      expect(called.content).toEqual([{ type: "text", text: "alive" }]);
      expect(process.exit).toBe(before.exit);
      expect(process.emit).toBe(before.emit);
    } finally {
      await session.dispose();
      clearLeakedInterval();
      removeExitListener();
      await prepared.cleanup();
    }
  });
});

/**
 * Root reads files whatever their permission bits say, so the `chmod` cases are skipped above
 * when the tests run as root (as in CI). Here they are made meaningful anyway: a child process
 * that has dropped to an unprivileged user (through `setpriv`) loads them.
 */
describe("unreadable paths, loaded by an unprivileged child", () => {
  const chmodCases = cases.filter(({ expected }) => expected.setup?.some((step) => step.kind === "chmod"));
  const skipReason = unprivilegedSkipReason();
  // jiti's cache of the loader's sources for the children, shared by the two compilers' runs:
  // the second child reuses what the first compiled. This run's own folder, not jiti's default
  // (<tmpdir>/jiti, shared by every user); the unprivileged user writes it.
  let jitiCache = "";
  beforeAll(async () => {
    jitiCache = await mkdtemp(join(tmpdir(), "tooldock-corpus-jiti-"));
    await chmod(jitiCache, 0o777);
  });
  afterAll(async () => {
    if (jitiCache !== "") await rm(jitiCache, { recursive: true, force: true });
  });

  // The first child compiles the loader's own sources with jiti (about 130 files): on a busy
  // 2-core machine that took 30 s, the default timeout. It runs asynchronously, so the
  // test's own timeout can end it.
  it.for(compilers)("%s", { timeout: 180_000 }, async (compiler, context) => {
    if (skipReason !== undefined) {
      console.warn(`[corpus] unprivileged child (${compiler}) skipped: ${skipReason}`);
      context.skip(skipReason);
      return;
    }
    // Outside the repository's node_modules, which the unprivileged user cannot write to.
    const scratch = await mkdtemp(join(tmpdir(), "tooldock-corpus-unprivileged-"));
    await chmod(scratch, 0o777);
    const prepared = await prepareCorpus(join(scratch, "corpus"));
    try {
      const dirs = chmodCases.map(({ id }) => join(prepared.root, id));
      const output = await promisify(execFile)(
        "setpriv",
        [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          process.execPath,
          unprivilegedScript,
          prepared.root,
          join(scratch, "cache"),
          compiler,
          ...dirs,
          canaryPath,
        ],
        {
          encoding: "utf8",
          timeout: 170_000,
          maxBuffer: 64 * 1024 * 1024,
          env: { ...process.env, TOOLDOCK_TEST_JITI_CACHE: jitiCache },
        },
      );
      expect(output.stderr).toBe("");
      const result = JSON.parse(output.stdout) as { tools: string[]; diagnostics: Diagnostic[] };
      expect(result.tools).toEqual(["corpus_canary"]);
      for (const { id, expected } of chmodCases) {
        const own = result.diagnostics.filter((d) => d.path.startsWith(join(prepared.root, id) + sep));
        expect([id, own.map((d) => [d.code, d.severity])]).toEqual([
          id,
          [[expected.code, expected.severity]],
        ]);
        expect(own[0]?.message).toContain("cannot be read (permission denied)");
      }
      expect(result.diagnostics).toHaveLength(chmodCases.length);
    } finally {
      await prepared.cleanup();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

/** Why the unprivileged child cannot (or need not) run here; `undefined` when it can. */
function unprivilegedSkipReason(): string | undefined {
  if (process.getuid?.() !== 0)
    return "not running as root: permission bits hold, so the chmod cases above are meaningful";
  const probe = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "true"]);
  if (probe.error !== undefined || probe.status !== 0)
    return "running as root without a working `setpriv` to drop to an unprivileged user";
  // A checkout inside a private folder (say `mktemp -d`, mode 700) cannot be read by the
  // unprivileged user at all; the child would fail before it loads anything.
  const readable = spawnSync("setpriv", [
    "--reuid=65534",
    "--regid=65534",
    "--clear-groups",
    process.execPath,
    "-e",
    "require('node:fs').accessSync(process.argv[1], require('node:fs').constants.R_OK)",
    unprivilegedScript,
  ]);
  if (readable.status !== 0)
    return `the unprivileged user cannot read this checkout (${unprivilegedScript}), so it cannot run the loader`;
  return undefined;
}

/** What some cases promise beyond their code. */
function caseSpecificChecks(id: string, diagnostic: Diagnostic, prepared: PreparedCorpus): void {
  switch (id) {
    case "compile-binary-file":
      expect(diagnostic.message).toContain("is a binary file (it contains NUL bytes)");
      expect(diagnostic.location).toBeUndefined();
      break;
    case "compile-large-file":
      expect(diagnostic.location?.line).toBe(1);
      expect(diagnostic.location?.lineText).toContain("const broken: = 1;");
      expect(diagnostic.location?.lineText.length).toBeLessThanOrEqual(202);
      break;
    case "fs-symlink-outside":
      expect(diagnostic.resolvedPath).toBe(realpathSync(join(prepared.outside, id, "tool.ts")));
      expect(diagnostic.path).toBe(join(prepared.root, id, "index.ts"));
      break;
    case "tampering-exit-listener":
      expect(diagnostic.message).toContain('added a process listener for "exit"');
      break;
    case "tampering-unhandled-rejection":
      expect(diagnostic.message).toContain("corpus: nobody handles this");
      break;
    case "import-process-exit-timer":
      expect(diagnostic.message).toContain("process.exit(9) from a timer or callback");
      break;
  }
}

function diagnosticsOf(diagnostics: Diagnostic[], path: string): Diagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.path === path);
}

/** The real file system, except that `folder` is deleted right after it has been listed. */
function removingAfterListing(folder: string): DiscoveryFileSystem {
  return {
    ...nodeDiscoveryFileSystem,
    async readdir(path) {
      const entries = await nodeDiscoveryFileSystem.readdir(path);
      if (path === folder) await rm(folder, { recursive: true, force: true });
      return entries;
    },
  };
}

/** The interval the `tampering-interval` case leaks on purpose, so the test process can end. */
function clearLeakedInterval(): void {
  const key = Symbol.for("tooldock.corpus.interval");
  const interval = (globalThis as Record<symbol, unknown>)[key];
  if (interval !== undefined) clearInterval(interval as NodeJS.Timeout);
  Reflect.deleteProperty(globalThis, key);
}

/** The "exit" listener the `tampering-exit-listener` case adds on purpose. */
function removeExitListener(): void {
  const key = Symbol.for("tooldock.corpus.exit-listener");
  const listener = (globalThis as Record<symbol, unknown>)[key];
  if (typeof listener === "function") process.removeListener("exit", listener as () => void);
  Reflect.deleteProperty(globalThis, key);
}
