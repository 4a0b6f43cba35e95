// A pack is named after its members' bundle keys. Discovery is streamed (issue 15), so when the
// first member of a group was needed before discovery had found the rest, the group's pack was
// looked up with the members found so far: fewer than two meant no pack at all (every module
// imported on its own), and otherwise a pack of another name than the one the previous start
// wrote (esbuild imported on a warm start, a pack per timing). A group's pack now waits until
// the group is complete (its last entry planned, or discovery ended).
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { nodeDiscoveryFileSystem } from "../../src/discover/file-system.js";
import { loadCustomTools } from "../../src/index.js";
import { generatedStackFiles, testCacheDir } from "../helpers.js";

// What packs do, on every Node: a cold load on Node 22.15+ evaluates its misses file by file
// and keeps doing so in the process (one evaluation per process), so it would never import
// the packs built after it here. Misses wait for their packs, as on Node 20 and Bun.
vi.mock("../../src/compile/per-file/per-file-available.js", () => ({
  registerHooks: undefined,
  perFileAvailable: () => false,
}));

/** Names checked to fall into one pack (pack boundaries hash the file name). */
const NAMES = ["a-paths.ts", "b-waits.ts", "c-counts.ts", "d-throws.ts"];

function source(name: string): string {
  const tool = name.slice(2, -3);
  return `export default (pi: any) => ({ name: "${tool}", label: "${tool}", description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() { throw new Error("thrown by ${tool}"); } });
`;
}

describe("regression: a pack's members do not depend on how far discovery had got", () => {
  it("waits for the whole group, so a slow discovery still loads from one pack, the same on every start", async () => {
    const cacheDir = testCacheDir("pack-timing");
    const dir = join(cacheDir, "..", `pack-timing-tools-${Math.random().toString(36).slice(2, 8)}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
    for (const name of NAMES) await writeFile(join(dir, name), source(name));
    // Each path given is stat'ed in turn; a slow stat lets the first module be built and
    // asked for while the others are still being discovered.
    const slow = {
      ...nodeDiscoveryFileSystem,
      async stat(path: string) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return nodeDiscoveryFileSystem.stat(path);
      },
    };
    const load = () =>
      loadCustomTools({
        paths: NAMES.map((name) => join(dir, name)),
        cwd: dir,
        cacheDir,
        fileSystem: slow,
      });
    const packs = async () =>
      (await readdir(join(cacheDir, "bundles"))).filter(
        (name) => name.startsWith("pack-") && name.endsWith(".mjs"),
      );
    const first = await load();
    expect(first.diagnostics).toEqual([]);
    // The first module's pack (a group of its own), and one pack for the three others.
    const written = await packs();
    expect(written).toHaveLength(2);
    const throws = first.tools.find((loaded) => loaded.tool.name === "throws")?.tool;
    expect(
      (await generatedStackFiles(throws, dir)).some((file) => /[\\/]pack-[0-9a-f]{40}\.[cm]js$/.test(file)),
    ).toBe(true);
    const again = await load();
    expect(again.diagnostics).toEqual([]);
    expect(await packs()).toEqual(written); // the same pack, found by name
  });
});
