import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../../scripts/runtimes.mjs";
import { PACKAGE_TOOL, THROWING_TOOL, writeFixturePackage } from "../helpers.js";
import { runNode } from "../per-file/run-node.js";

/**
 * A warm load runs each pack as a script compiled with V8's code cache (`pack-script.ts`),
 * written after the load before it. Each load runs in a fresh process, as a host's start does,
 * under the suite's Node and under Node 24 (whose cold load evaluates file by file and so
 * writes the packs, not their code caches).
 */
const here = dirname(fileURLToPath(import.meta.url));
const runtimes: Record<string, string> = { suite: process.execPath };
let scratch = "";

beforeAll(async () => {
  runtimes.node24 = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
  scratch = await realpath(await mkdtemp(join(tmpdir(), "tooldock-pack-scripts-")));
}, 600_000);
afterAll(async () => {
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

// The first module of a load is a pack of its own, and so is one that imports a package
// (imported as a module: a package's own import stays); the other five share a pack, which
// imports built-ins by name, by default and whole (bound from their namespaces), and holds a
// string that looks like an import and an export (found by review: rewritten once).
const TOOLS: Record<string, string> = {
  "a-first.ts": `export default (pi: any) => ({
  name: "first", label: "First", description: "The first module: a pack of its own.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: "first" }] }; },
});
`,
  "b-paths.ts": `import path, {
  join,
  basename as base,
} from "node:path";
export default (pi: any) => ({
  name: "paths", label: "Paths", description: "Imports a built-in by default and by name.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: join("a", base("/x/b")) + path.sep }] };
  },
});
`,
  "c-waits.ts": `const ready = await Promise.resolve("waited");
export default (pi: any) => ({
  name: "waits", label: "Waits", description: "Waits at the top level.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: ready }] }; },
});
`,
  "d-strict.ts": `const strict = (function (this: unknown) { return this === undefined; })();
export default (pi: any) => ({
  name: "strict", label: "Strict", description: "Says whether its code runs in strict mode.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: String(strict) }] }; },
});
`,
  "f-os.ts": `import * as os from "node:os";
export default (pi: any) => ({
  name: "os", label: "OS", description: "Imports a built-in's namespace.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: typeof os.cpus }] }; },
});
`,
  "f-template.ts": `// Code that looks like a pack's import and exports, in a string: left as written.
const generated = \`// generated
import { readFile } from "node:fs";
export { readFile };
\`;
export default (pi: any) => ({
  name: "template", label: "Template", description: "Returns generated code.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: generated }] }; },
});
`,
  "g-package.ts": PACKAGE_TOOL,
  "e-throws.ts": THROWING_TOOL,
};

interface Load {
  tools: string[];
  diagnostics: string[];
  counts: { fromCodeCache: number; compiled: number; asModule: number };
  stack: string;
  answers: Record<string, string>;
}

async function project(label: string): Promise<{ tools: string; cache: string }> {
  const root = join(scratch, label);
  const tools = join(root, "tools");
  await mkdir(tools, { recursive: true });
  // Not `strict` (whose `alwaysStrict` has esbuild write "use strict" into the code): the
  // modules' code is strict because an ES module's is, and a pack's script must keep it so.
  await writeFile(join(tools, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: false } }));
  await writeFixturePackage(tools);
  for (const [name, source] of Object.entries(TOOLS)) await writeFile(join(tools, name), source);
  return { tools, cache: join(root, "cache") };
}

async function loadOnce(
  node: string,
  where: { tools: string; cache: string },
  env?: NodeJS.ProcessEnv,
): Promise<Load> {
  const run = await runNode(node, [join(here, "load-once.mjs"), where.tools, where.cache], env);
  return JSON.parse(run.stdout) as Load;
}

/**
 * A runtime's project loaded three times in a row (cold, writing the packs, then their code
 * caches, then warm), once for the file: the first test asserts the three loads, the others
 * start from the warm project rather than warm one of their own (two fresh processes each).
 * The coverage loads leave the code caches alone; the planted and damaged tests end with a load
 * that finds both warm again (asserted), so the next test starts from a warm project too.
 */
const warmUps = new Map<string, Promise<{ where: { tools: string; cache: string }; loads: Load[] }>>();
function warmUp(runtime: string) {
  let running = warmUps.get(runtime);
  if (running === undefined) {
    running = (async () => {
      const where = await project(`warm-${runtime}`);
      const loads: Load[] = [];
      for (let round = 0; round < 3; round++) loads.push(await loadOnce(runtimes[runtime] as string, where));
      return { where, loads };
    })();
    warmUps.set(runtime, running);
  }
  return running;
}

/** The runtime's project, warm: its packs written, and their code caches. */
const warmed = async (runtime: string) => (await warmUp(runtime)).where;

async function codeCaches(cache: string): Promise<string[]> {
  const names = await readdir(join(cache, "bundles"));
  return names.filter((name) => name.endsWith(".code")).map((name) => join(cache, "bundles", name));
}

const EXPECTED_ANSWERS = {
  first: "first",
  paths: "a/b/",
  waits: "waited",
  strict: "true",
  os: "function",
  template: '// generated\nimport { readFile } from "node:fs";\nexport { readFile };\n',
  package: "from a package",
};

describe.each(["suite", "node24"])("packs run as scripts with V8's code cache (%s)", (runtime) => {
  it("runs a warm load's packs from the code cache the load before wrote, as the modules they were", {
    timeout: 120_000,
  }, async () => {
    const { where, loads } = await warmUp(runtime);
    const [cold, , warm] = loads as [Load, Load, Load];
    expect(cold.diagnostics).toEqual([]);
    for (const load of loads) {
      expect(load.tools).toEqual([
        "first",
        "paths",
        "waits",
        "strict",
        "throws",
        "os",
        "template",
        "package",
      ]);
      expect(load.diagnostics).toEqual(cold.diagnostics);
      expect(load.answers).toEqual(EXPECTED_ANSWERS);
      // The source map still names the tool's own line (line 7: the `throw`).
      expect(load.stack).toContain(`${join(where.tools, "e-throws.ts")}:7:`);
    }
    // The third load compiled nothing: the first module's pack and the shared one come from
    // their code caches; the one that imports a package is a module.
    expect(warm.counts).toEqual({ fromCodeCache: 2, compiled: 0, asModule: 1 });
    expect(await codeCaches(where.cache)).toHaveLength(2);
  });

  it("a coverage run (NODE_V8_COVERAGE) imports the packs as modules: what c8 reads is what ran", {
    timeout: 120_000,
  }, async () => {
    // c8 and `node --test`'s coverage read each range against the file a script is named after
    // and the line lengths Node noted for it; a pack's script is named after its `.cjs` stub.
    const node = runtimes[runtime] as string;
    const where = await warmed(runtime);
    const coverage = join(scratch, `coverage-${runtime}-report`);
    const load = await loadOnce(node, where, { NODE_V8_COVERAGE: coverage });
    expect(load.counts).toEqual({ fromCodeCache: 0, compiled: 0, asModule: 3 });
    expect(load.answers).toEqual(EXPECTED_ANSWERS);
    expect(load.stack).toContain(`${join(where.tools, "e-throws.ts")}:7:`);
    const noted: Record<string, { lineLengths: number[]; data: { sources: string[] } | null }> = {};
    const ran = new Set<string>();
    for (const name of await readdir(coverage)) {
      const report = JSON.parse(await readFile(join(coverage, name), "utf8")) as {
        result: Array<{ url: string }>;
        "source-map-cache"?: typeof noted;
      };
      Object.assign(noted, report["source-map-cache"]);
      for (const { url } of report.result) if (url.includes("/bundles/pack-")) ran.add(url);
    }
    expect(ran.size).toBe(3);
    const first = pathToFileURL(join(where.tools, "a-first.ts")).href;
    for (const url of ran) {
      expect(url).toMatch(/\/bundles\/pack-[0-9a-f]+\.mjs$/);
      const text = await readFile(fileURLToPath(url), "utf8");
      expect(noted[url]?.lineLengths).toEqual(text.split("\n").map((line) => line.length));
    }
    expect([...ran].filter((url) => noted[url]?.data?.sources.includes(first))).toHaveLength(1);
    // With source maps off too; a frame then names the pack that ran.
    const off = await loadOnce(node, where, { NODE_V8_COVERAGE: coverage, TOOLDOCK_SOURCE_MAPS: "0" });
    expect(off.counts).toEqual({ fromCodeCache: 0, compiled: 0, asModule: 3 });
    expect(off.stack).toMatch(/\/bundles\/pack-[0-9a-f]+\.mjs:\d+:\d+/);
  });

  it("a code cache made writable by others in the cache folder is never run: compiled again and replaced", {
    timeout: 120_000,
  }, async () => {
    const node = runtimes[runtime] as string;
    const where = await warmed(runtime);
    const [planted] = await codeCaches(where.cache);
    if (planted === undefined) throw new Error("no code cache written");
    await chmod(planted, 0o666);
    const after = await loadOnce(node, where);
    expect(after.answers).toEqual(EXPECTED_ANSWERS);
    expect(after.counts.compiled).toBe(1);
    // Written anew as the loader's own file, which the next load runs.
    expect((await stat(planted)).mode & 0o777).toBe(0o600);
    expect((await loadOnce(node, where)).counts).toMatchObject({ fromCodeCache: 2, compiled: 0 });
  });

  it("a code cache damaged on the disk is refused before V8 runs it: compiled again and rewritten", {
    timeout: 120_000,
  }, async () => {
    const node = runtimes[runtime] as string;
    const where = await warmed(runtime);
    for (const path of await codeCaches(where.cache)) {
      const bytes = await readFile(path);
      // V8's own header stays intact: only the bytecode after it is changed.
      for (let at = Math.floor(bytes.length / 2); at < bytes.length; at += 7)
        bytes[at] = (bytes[at] ?? 0) ^ 0xa5;
      await writeFile(path, bytes, { mode: 0o600 });
    }
    const after = await loadOnce(node, where);
    expect(after.answers).toEqual(EXPECTED_ANSWERS);
    expect(after.counts).toMatchObject({ fromCodeCache: 0, compiled: 2 });
    expect((await loadOnce(node, where)).counts).toMatchObject({ fromCodeCache: 2, compiled: 0 });
  });
});
