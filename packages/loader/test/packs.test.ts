import { cp, mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadCustomTools } from "../src/index.js";
import {
  fakeContext,
  generatedStackFiles,
  PACKAGE_TOOL,
  THROWING_TOOL,
  testCacheDir,
  writeFixturePackage,
} from "./helpers.js";

// What packs do, on every Node: a cold load on Node 22.15+ evaluates its misses file by file
// and keeps doing so in the process (one evaluation per process), so it would never import
// the packs built after it here. Misses wait for their packs, as on Node 20 and Bun.
vi.mock("../src/compile/per-file/per-file-available.js", () => ({
  registerHooks: undefined,
  perFileAvailable: () => false,
}));

// Tool files of one folder, in discovery order. Their names were checked to fall into one
// pack (pack boundaries hash the file name, so they do not depend on the folder).
const TOOLS: Record<string, string> = {
  "a-paths.ts": `import path, { join } from "node:path";
import * as os from "node:os";
export default (pi: any) => ({
  name: "paths", label: "Paths", description: "Joins paths.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: join("a", path.basename("/x/b")) + typeof os.cpus }] };
  },
});
`,
  "b-waits.ts": `const ready = await Promise.resolve("waited");
export default (pi: any) => ({
  name: "waits", label: "Waits", description: "Used top-level await.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: ready }] }; },
});
`,
  "c-counts.ts": `const state = globalThis as { __packLoads?: number };
state.__packLoads = (state.__packLoads ?? 0) + 1;
export default (pi: any) => ({
  name: "counts", label: "Counts", description: "Counts how often its top level ran.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: String(state.__packLoads) }] }; },
});
`,
  "d-throws.ts": THROWING_TOOL,
  "e-package.ts": PACKAGE_TOOL,
};

async function toolFolder(label: string): Promise<{ dir: string; cacheDir: string }> {
  const cacheDir = testCacheDir(label);
  const dir = join(cacheDir, "..", `${label}-tools-${Math.random().toString(36).slice(2, 8)}`);
  await writeFixturePackage(dir);
  // Its own tsconfig, so an edit of the repository's config during the run changes no key.
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  for (const [name, source] of Object.entries(TOOLS)) await writeFile(join(dir, name), source);
  return { dir, cacheDir };
}

async function load(dir: string, cacheDir: string) {
  const result = await loadCustomTools({ paths: [dir], cwd: dir, cacheDir });
  const call = async (name: string) => {
    const tool = result.tools.find((loaded) => loaded.tool.name === name)?.tool;
    const called = await tool?.execute("1", {} as never, undefined, fakeContext(dir));
    return called?.content[0]?.type === "text" ? called.content[0].text : undefined;
  };
  return { ...result, call };
}

/**
 * A copy of a filled cache under a new folder: its bundles have new URLs, so this process
 * evaluates them afresh, from the packs found on disk, as a new process would.
 */
async function warmCopy(cacheDir: string): Promise<string> {
  const copy = testCacheDir("packs-copy");
  await cp(cacheDir, copy, { recursive: true });
  return copy;
}

/** Runs `round` on the cache as the first load fills it, then on a {@link warmCopy} of it. */
async function coldThenWarm(cacheDir: string, round: (cache: string) => Promise<void>): Promise<void> {
  await round(cacheDir);
  await round(await warmCopy(cacheDir));
}

const PACK_FILE = /[\\/]bundles[\\/]pack-[0-9a-f]{40}\.[cm]js$/; // a script is compiled as the pack's .cjs

/** The `members` array of a pack, as esbuild wrote it. */
function packMembers(pack: string): string {
  return pack.match(/^var members = \[[\s\S]*?\];$/m)?.[0] ?? "";
}

async function packFiles(cacheDir: string): Promise<string[]> {
  const names = await readdir(join(cacheDir, "bundles"));
  return names.filter((name) => name.startsWith("pack-") && name.endsWith(".mjs")).sort();
}

/** The packs of more than one member (every other module is a pack of its own). */
async function sharedPacks(cacheDir: string): Promise<string[]> {
  const shared: string[] = [];
  for (const name of await packFiles(cacheDir)) {
    const members = packMembers(await readFile(join(cacheDir, "bundles", name), "utf8"));
    if ((members.match(/^\s+\(\) =>/gm) ?? []).length > 1) shared.push(name);
  }
  return shared;
}

describe("packs: many tools in one file", () => {
  it("loads every tool from one pack, and imports a bundle with a package import on its own", async () => {
    const { dir, cacheDir } = await toolFolder("packs-basic");
    await coldThenWarm(cacheDir, async (cache) => {
      const { tools, diagnostics, call } = await load(dir, cache);
      expect(diagnostics, cache).toEqual([]);
      expect(tools.map((loaded) => loaded.tool.name)).toEqual([
        "paths",
        "waits",
        "counts",
        "throws",
        "package",
      ]);
      expect(await call("paths")).toBe("a/bfunction");
      expect(await call("waits")).toBe("waited");
      expect(await call("package")).toBe("from a package");
      // The code ran from the pack, not from the tool's own bundle.
      const throws = tools.find((loaded) => loaded.tool.name === "throws")?.tool;
      expect((await generatedStackFiles(throws, dir)).some((file) => PACK_FILE.test(file))).toBe(true);
    });
    const packs = await sharedPacks(cacheDir);
    expect(packs).toHaveLength(1);
    const pack = await readFile(join(cacheDir, "bundles", packs[0] as string), "utf8");
    // Three members behind esbuild's lazy init: the first module of a load is a group of its
    // own, and the one that imports a package is a pack of its own (five packs in all).
    const members = packMembers(pack);
    expect(members.match(/\binit_[\w$]+\(\)/g)).toHaveLength(3);
    expect(await packFiles(cacheDir)).toHaveLength(3);
  });

  it("evaluates a shared member without a promise, unless it waits at the top level", async () => {
    const { dir, cacheDir } = await toolFolder("packs-sync");
    const { diagnostics, call } = await load(dir, cacheDir);
    expect(diagnostics).toEqual([]);
    const records = new Map<string, { sync?: boolean; pack: string }>();
    for (const name of await readdir(join(cacheDir, "index"))) {
      const index = JSON.parse(await readFile(join(cacheDir, "index", name), "utf8")) as {
        members: Array<{ entry: string; sync?: boolean; pack: string }>;
      };
      for (const member of index.members) records.set(basename(member.entry), member);
    }
    // `waits` shares the pack but its init is async: it is evaluated through its import().
    expect(Object.fromEntries([...records].map(([file, record]) => [file, record.sync === true]))).toEqual({
      "a-paths.ts": false,
      "b-waits.ts": false,
      "c-counts.ts": true,
      "d-throws.ts": true,
      "e-package.ts": false,
    });
    expect(records.get("b-waits.ts")?.pack).toBe(records.get("c-counts.ts")?.pack);
    const warm = await load(dir, await warmCopy(cacheDir));
    expect(warm.diagnostics).toEqual([]);
    expect(await warm.call("waits")).toBe("waited");
    expect(await call("waits")).toBe("waited");
  });

  it("loads from the pack a later process finds on disk", async () => {
    const { dir, cacheDir } = await toolFolder("packs-warm");
    await load(dir, cacheDir);
    const warm = await warmCopy(cacheDir);
    const before = await packFiles(warm);
    expect(await sharedPacks(warm)).toHaveLength(1);
    const { tools, diagnostics, call } = await load(dir, warm);
    expect(diagnostics).toEqual([]);
    expect(tools).toHaveLength(5);
    expect(await call("waits")).toBe("waited");
    expect(await packFiles(warm)).toEqual(before); // found by name, not written again
    const throws = tools.find((loaded) => loaded.tool.name === "throws")?.tool;
    expect((await generatedStackFiles(throws, dir)).some((file) => PACK_FILE.test(file))).toBe(true);
  });

  it("evaluates a packed module once per process, like an ES import, and runs its factory at every load", async () => {
    const { dir, cacheDir } = await toolFolder("packs-state");
    const state = globalThis as { __packLoads?: number };
    state.__packLoads = 0;
    const first = await load(dir, cacheDir);
    const second = await load(dir, cacheDir);
    expect(await second.call("counts")).toBe("1");
    const tool = (result: typeof first) => result.tools.find((loaded) => loaded.tool.name === "counts")?.tool;
    expect(tool(second)).not.toBe(tool(first));
    await load(dir, await warmCopy(cacheDir)); // other URLs: evaluated again, as another process would
    expect(state.__packLoads).toBe(2);
  });

  it("binds a member's imports of built-ins before any code of its bundle runs (an import cycle)", async () => {
    const { dir, cacheDir } = await toolFolder("packs-cycle");
    // esbuild writes lib/helper.ts (whose top level calls back into the entry) before the
    // entry's own section, which holds its `import { join }`.
    await mkdir(join(dir, "cycle/lib"), { recursive: true });
    await writeFile(
      join(dir, "cycle/index.ts"),
      `import { early } from "./lib/helper";
import { join } from "node:path";
export function joined(): string { return join("x", "y"); }
export default (pi: any) => ({
  name: "cycle", label: "Cycle", description: "Imports a module that calls back into it.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { return { content: [{ type: "text" as const, text: early }] }; },
});
`,
    );
    await writeFile(
      join(dir, "cycle/lib/helper.ts"),
      'import { joined } from "../index";\nexport const early = joined();\n',
    );
    await coldThenWarm(cacheDir, async (cache) => {
      const { diagnostics, call } = await load(dir, cache);
      expect(diagnostics).toEqual([]);
      expect(await call("cycle")).toBe("x/y");
    });
    // It ran from the pack with the other members of its group.
    const pack = await readFile(
      join(cacheDir, "bundles", (await sharedPacks(cacheDir))[0] as string),
      "utf8",
    );
    expect(pack).toContain("function joined()");
  });

  it("fails a member that imports a name its built-in does not export, as esbuild's build does", async () => {
    const { dir, cacheDir } = await toolFolder("packs-missing-export");
    await writeFile(
      join(dir, "b-waits.ts"),
      'import { notAnExport } from "node:path";\nexport default () => ({ name: "waits", run: notAnExport });\n',
    );
    const { diagnostics, tools } = await load(dir, cacheDir);
    expect(tools).toHaveLength(4);
    // A link fault, found before the module's code runs: E_COMPILE at the import (issue 14, item 9).
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_COMPILE"]);
    expect(diagnostics[0]?.message).toContain('No matching export in "node:path" for import "notAnExport"');
    expect(diagnostics[0]?.location).toMatchObject({ line: 1, column: 10 });
  });

  it("names the .ts line of a packed tool in stack traces", async () => {
    const { dir, cacheDir } = await toolFolder("packs-stack");
    await load(dir, cacheDir);
    const { tools } = await load(dir, cacheDir);
    // vitest installs its own Error.prepareStackTrace; a host uses Node's, which applies maps.
    const vitestPrepare = Error.prepareStackTrace;
    Reflect.deleteProperty(Error, "prepareStackTrace");
    let stack = "";
    try {
      const tool = tools.find((loaded) => loaded.tool.name === "throws")?.tool;
      const error = await tool
        ?.execute("1", {} as never, undefined, fakeContext(dir))
        .catch((thrown) => thrown);
      stack = String((error as Error).stack);
    } finally {
      if (vitestPrepare !== undefined) Error.prepareStackTrace = vitestPrepare;
    }
    expect(stack).toContain(`${join(dir, "d-throws.ts")}:7:`);
    // Through the pack's merged map: the code itself ran from the pack.
    const throws = tools.find((loaded) => loaded.tool.name === "throws")?.tool;
    expect((await generatedStackFiles(throws, dir)).some((file) => PACK_FILE.test(file))).toBe(true);
  });

  it("keeps the guards per module: an exit or a process listener inside a pack names its own module", async () => {
    const { dir, cacheDir } = await toolFolder("packs-guards");
    await writeFile(join(dir, "b-waits.ts"), "process.exit(3);\nexport default () => [];\n");
    await writeFile(
      join(dir, "c-counts.ts"),
      `process.on("SIGTERM", (globalThis as any)[Symbol.for("tooldock.test.packs-listener")]);
export default (pi: any) => ({ name: "counts", label: "C", description: "d", parameters: pi.typebox.Type.Object({}), async execute() { return { content: [] }; } });
`,
    );
    const listener = () => {};
    (globalThis as Record<symbol, unknown>)[Symbol.for("tooldock.test.packs-listener")] = listener;
    await coldThenWarm(cacheDir, async (cache) => {
      try {
        const { tools, diagnostics } = await load(dir, cache);
        expect(
          tools.map((loaded) => loaded.tool.name),
          cache,
        ).toEqual(["paths", "counts", "throws", "package"]);
        expect(
          diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path]),
          cache,
        ).toEqual([
          ["E_PROCESS_EXIT", join(dir, "b-waits.ts")],
          ["W_PROCESS_LISTENER", join(dir, "c-counts.ts")],
        ]);
      } finally {
        process.removeListener("SIGTERM", listener);
      }
    });
    expect(await sharedPacks(cacheDir)).toHaveLength(1);
  });

  it("writes a new pack after an edit and removes the one it replaces", async () => {
    const { dir, cacheDir } = await toolFolder("packs-edit");
    await load(dir, cacheDir);
    const before = await sharedPacks(cacheDir);
    await writeFile(join(dir, "b-waits.ts"), (TOOLS["b-waits.ts"] as string).replace('"waited"', '"edited"'));
    const { call } = await load(dir, cacheDir);
    expect(await call("waits")).toBe("edited");
    const after = await sharedPacks(cacheDir);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });

  it("removes packs not written for 30 days when it writes a pack", async () => {
    const { dir, cacheDir } = await toolFolder("packs-sweep");
    await mkdir(join(cacheDir, "bundles"), { recursive: true });
    const old = `pack-${"a".repeat(40)}.mjs`;
    const recent = `pack-${"b".repeat(40)}.mjs`;
    for (const name of [old, recent]) await writeFile(join(cacheDir, "bundles", name), "export {};\n");
    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    await utimes(join(cacheDir, "bundles", old), monthAgo, monthAgo);
    await load(dir, cacheDir); // cold: writes this folder's pack
    const packs = await packFiles(cacheDir);
    expect(packs).toContain(recent);
    expect(packs).not.toContain(old);
    expect(await sharedPacks(cacheDir)).toHaveLength(1);
  });

  it("builds a pack of another size than the index recorded again, in the same load", async () => {
    const { dir, cacheDir } = await toolFolder("packs-resized");
    await load(dir, cacheDir);
    const warm = await warmCopy(cacheDir);
    const [pack] = await sharedPacks(warm);
    const path = join(warm, "bundles", pack as string);
    const whole = await readFile(path, "utf8");
    await writeFile(path, "this is not JavaScript {");
    const { tools, diagnostics, call } = await load(dir, warm);
    expect(diagnostics).toEqual([]);
    expect(tools).toHaveLength(5);
    expect(await call("waits")).toBe("waited");
    expect(await readFile(path, "utf8")).toBe(whole);
  });

  it("still loads every tool, each on its own, when the pack file is damaged at its size, and writes it anew", async () => {
    const { dir, cacheDir } = await toolFolder("packs-damaged");
    await load(dir, cacheDir);
    const warm = await warmCopy(cacheDir);
    const [pack] = await sharedPacks(warm);
    const path = join(warm, "bundles", pack as string);
    // Garbage of the recorded size: only importing it shows the damage. The script written
    // beside it (what a warm load runs instead, where it can) is damaged alike.
    for (const file of [path, path.replace(/\.mjs$/, ".script")]) {
      const size = (await readFile(file)).length;
      await writeFile(file, "this is not JavaScript {".padEnd(size, " "));
    }
    const { tools, diagnostics, call } = await load(dir, warm);
    expect(diagnostics).toEqual([]);
    expect(tools).toHaveLength(5);
    expect(await call("waits")).toBe("waited");
    expect(await packFiles(warm)).not.toContain(pack); // removed once found damaged
    await load(dir, warm);
    expect(await sharedPacks(warm)).toEqual([pack]);
    expect(await readFile(join(warm, "bundles", pack as string), "utf8")).toMatch(/^var members = \[/m);
  });
});
