import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadCustomTools } from "../src/index.js";
import { fakeContext, generatedStackFiles, testCacheDir } from "./helpers.js";

// What packs do, on every Node: a cold load on Node 22.15+ evaluates its misses file by file
// and keeps doing so in the process (one evaluation per process), so it would never import
// the packs built after it here. Misses wait for their packs, as on Node 20 and Bun.
vi.mock("../src/compile/per-file/per-file-available.js", () => ({
  registerHooks: undefined,
  perFileAvailable: () => false,
}));

// The cold path builds each group's pack straight from the tools' sources (issue 15): one
// esbuild build for the packs, and one cache index per group that names each member's pack and
// records the member's own inputs (issue 24: one kind of unit, one index format).

/** Names checked to fall into one pack (pack boundaries hash the file name). */
const NAMES = ["a-paths.ts", "b-waits.ts", "c-counts.ts", "d-throws.ts"];

function tool(name: string, body = 'return "ran";', head = ""): string {
  return `${head}
export default (pi: any) => ({ name: "${name}", label: "${name}", description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { const text = (() => { ${body} })(); return { content: [{ type: "text" as const, text: String(text) }] }; } });
`;
}

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function toolFolder(label: string, files: Record<string, string>) {
  const cacheDir = testCacheDir(label);
  const dir = join(cacheDir, "..", `${label}-tools-${Math.random().toString(36).slice(2, 8)}`);
  folders.push(dir, cacheDir);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  // The first module of a load is built and imported on its own (a group of one), so the
  // first tool is ready soonest; the tools under test come after it, in one group.
  await writeFile(join(dir, "0-lead.ts"), tool("lead"));
  for (const [name, source] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), source);
  }
  return { dir, cacheDir };
}

async function load(dir: string, cacheDir: string) {
  // A folder: its own files are all found before its first module loads, so the group is
  // complete when the first module is needed.
  const result = await loadCustomTools({ paths: [dir], cwd: dir, cacheDir });
  const call = async (name: string) => {
    const found = result.tools.find((loaded) => loaded.tool.name === name)?.tool;
    const called = await found?.execute("1", {} as never, undefined, fakeContext(dir));
    return called?.content[0]?.type === "text" ? called.content[0].text : undefined;
  };
  return { ...result, call };
}

interface Member {
  entry: string;
  pack: string;
  index: number;
  inputs: Record<string, string>;
}

/** The cache's pack files, and every member record of its group indexes. */
async function cacheFiles(cacheDir: string) {
  const bundles = (await readdir(join(cacheDir, "bundles"))).filter((name) => name.endsWith(".mjs")).sort();
  const groups = await Promise.all(
    (await readdir(join(cacheDir, "index"))).map(
      async (name) =>
        JSON.parse(await readFile(join(cacheDir, "index", name), "utf8")) as { members: Member[] },
    ),
  );
  return { bundles, groups, members: groups.flatMap((group) => group.members) };
}

describe("packs built from the sources", () => {
  it("writes one pack per group on a cold load; the group's index names each member's pack and its own inputs", async () => {
    const files = Object.fromEntries(
      NAMES.map((name) => [
        name,
        tool(name.slice(2, -3), `return helper("${name}");`, `import { helper } from "./lib/${name}";`),
      ]),
    );
    files["d-throws.ts"] = tool(
      "throws",
      'throw new Error(helper("d"));',
      'import { helper } from "./lib/d-throws.ts";',
    );
    for (const name of NAMES)
      files[`lib/${name}`] = 'export const helper = (text: string) => "helped " + text;\n';
    const { dir, cacheDir } = await toolFolder("source-packs-cold", files);
    const first = await load(dir, cacheDir);
    expect(first.diagnostics).toEqual([]);
    expect(await first.call("waits")).toBe("helped b-waits.ts");
    const cached = await cacheFiles(cacheDir);
    // Two packs: the lead module's own (a group of one), and one for the four others.
    expect(cached.bundles).toHaveLength(2);
    expect(cached.groups).toHaveLength(2);
    const pack = cached.members.find((member) => member.entry === join(dir, "b-waits.ts"))?.pack;
    expect(cached.bundles).toContain(`pack-${pack}.mjs`);
    const members = cached.members.filter((member) => !member.entry.endsWith("0-lead.ts"));
    expect(members.map((member) => [member.entry, member.pack, member.index])).toEqual(
      NAMES.map((name, at) => [join(dir, name), pack, at]),
    );
    for (const member of members) {
      expect(Object.keys(member.inputs).sort()).toEqual([
        join(dir, member.entry.slice(dir.length + 1)),
        join(dir, "lib", member.entry.slice(dir.length + 1)),
      ]);
    }
    const throws = first.tools.find((loaded) => loaded.tool.name === "throws")?.tool;
    expect(
      (await generatedStackFiles(throws, dir)).some((file) => /[\\/]pack-[0-9a-f]{40}\.[cm]js$/.test(file)),
    ).toBe(true);

    // An edit of one member's helper is seen; the group gets a new pack, the old one goes.
    await writeFile(join(dir, "lib/b-waits.ts"), "export const helper = () => `edited`;\n");
    const second = await load(dir, cacheDir);
    expect(second.diagnostics).toEqual([]);
    expect(await second.call("waits")).toBe("edited");
    expect(await second.call("paths")).toBe("helped a-paths.ts");
    const after = await cacheFiles(cacheDir);
    expect(after.bundles).toHaveLength(2);
    expect(after.bundles).not.toContain(`pack-${pack}.mjs`);
  });

  it("pins a syntax error to its own module; the other members of its group still load", async () => {
    const files = Object.fromEntries(NAMES.map((name) => [name, tool(name.slice(2, -3))]));
    files["c-counts.ts"] = "export default (pi: any) => ({ name: 'counts', \n";
    const { dir, cacheDir } = await toolFolder("source-packs-syntax", files);
    for (const round of ["cold", "again"]) {
      const { tools, diagnostics, call } = await load(dir, cacheDir);
      expect(
        diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.path]),
        round,
      ).toEqual([["E_COMPILE", join(dir, "c-counts.ts")]]);
      expect(tools.map((loaded) => loaded.tool.name)).toEqual(["lead", "paths", "waits", "throws"]);
      expect(await call("throws")).toBe("ran");
    }
  });

  it("gives each member its own copy of a file two members import, as their own bundles would", async () => {
    const shared = "export let loads = 0;\nloads += 1;\nexport const bump = () => ++loads;\n";
    const head = 'import { bump } from "./lib/shared";';
    const files: Record<string, string> = {
      "a-paths.ts": tool("paths", "return bump();", head),
      "b-waits.ts": tool("waits", "return bump();", head),
      "c-counts.ts": tool("counts"),
      "d-throws.ts": tool("throws"),
      "lib/shared.ts": shared,
    };
    const { dir, cacheDir } = await toolFolder("source-packs-shared", files);
    const { diagnostics, call } = await load(dir, cacheDir);
    expect(diagnostics).toEqual([]);
    // Each tool counts on its own module state: 1 + 1 each, not 2 then 3 from one shared copy.
    expect(await call("paths")).toBe("2");
    expect(await call("waits")).toBe("2");
    const { members } = await cacheFiles(cacheDir);
    const pack = (name: string) => members.find((member) => member.entry === join(dir, name))?.pack;
    // The second importer of the shared file is a pack of its own; the others share one.
    expect(pack("b-waits.ts")).not.toBe(pack("a-paths.ts"));
    expect(pack("c-counts.ts")).toBe(pack("a-paths.ts"));
  });
});
