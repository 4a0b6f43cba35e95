import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as esbuild from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type MemberRecord, readGroupIndex } from "../compile/cache-index.js";
import { esbuildContextHash } from "../compile/compiler-version.js";
import { checkMember, checkMemo } from "../compile/current-member.js";
import { RACY_WINDOW_MS } from "../compile/input-fingerprint.js";
import { EsbuildQueue, PackMissing } from "./esbuild-queue.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-queue-"));
});

afterAll(async () => {
  await esbuild.stop();
  await rm(root, { recursive: true, force: true });
});

afterEach(() => {
  vi.useRealTimers();
});

/** A batch whose esbuild counts its builds and the entry points of each. */
function countingBatch() {
  const builds: number[] = [];
  const build = ((options: esbuild.BuildOptions) => {
    builds.push((options.entryPoints as unknown[]).length);
    return esbuild.build(options);
  }) as typeof esbuild.build;
  return { builds, batch: { esbuild: async () => ({ ...esbuild, build }) } };
}

async function writeTools(folder: string, count: number): Promise<string[]> {
  const entries: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const dir = join(root, folder, `tool-${index}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "helpers.ts"), `export const label: string = "tool ${index}";\n`);
    await writeFile(
      join(dir, "index.ts"),
      `import { Type } from "@sinclair/typebox";\nimport { label } from "./helpers";\nexport default () => ({ name: label, parameters: Type.Object({}) });\n`,
    );
    entries.push(join(dir, "index.ts"));
  }
  return entries;
}

describe("EsbuildQueue", () => {
  it("builds every stale entry of the plan in one esbuild build, then serves them from the cache", async () => {
    const cacheDir = join(root, "cache-plan");
    const entries = await writeTools("plan", 5);
    const cold = countingBatch();
    const queue = new EsbuildQueue(cacheDir, cold.batch);
    queue.plan(entries);
    const first = await queue.compile(entries[0] as string);
    expect(first.fromCache).toBe(false);
    const rest = await Promise.all(entries.slice(1).map((entry) => queue.compile(entry)));
    await queue.settle();
    expect(cold.builds).toEqual([5]);
    expect(rest.every((bundle) => !bundle.fromCache)).toBe(true);
    const pack = await readFile(first.pack.path, "utf8");
    expect(pack).toContain('"tool 0"');
    expect(pack).toMatch(/\/\/# sourceMappingURL=\.\.\/maps\/pack-[0-9a-f]{40}\.mjs\.map\n$/);

    const warm = countingBatch();
    const again = new EsbuildQueue(cacheDir, warm.batch);
    const bundles = await Promise.all(entries.map((entry) => again.compile(entry)));
    expect(bundles.map((each) => each.id)).toEqual([first.id, ...rest.map((each) => each.id)]);
    expect(bundles.every((each) => each.fromCache)).toBe(true);
    expect(warm.builds).toEqual([]);
  });

  it("pins a compile error to its entry and still builds the others", async () => {
    const cacheDir = join(root, "cache-broken");
    const entries = await writeTools("broken", 4);
    const broken = entries[2] as string;
    await writeFile(broken, "export default () => ({\n  name: (,\n});\n");
    const queue = new EsbuildQueue(cacheDir, countingBatch().batch);
    queue.plan(entries);
    const results = await Promise.allSettled(entries.map((entry) => queue.compile(entry)));
    await queue.settle();
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({
      name: "CompileFailure",
      file: broken,
      location: { line: 2, lineText: "  name: (," },
    });
  });

  it("trusts a recorded stat only while it matches exactly: a touch is a hit, a same-size edit a miss", async () => {
    const cacheDir = join(root, "cache-stats");
    const [entry] = (await writeTools("stats", 1)) as [string];
    const helper = join(entry, "..", "helpers.ts");
    await utimes(helper, 1_700_000_000, 1_700_000_000); // whole seconds: restored exactly below
    // Record the inputs as if they were written long ago, so their stats get fingerprints.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * RACY_WINDOW_MS);
    const built = await new EsbuildQueue(cacheDir, countingBatch().batch).compile(entry);
    const record = () => {
      const index = readGroupIndex(cacheDir, entry);
      expect(index?.context).toBe(esbuildContextHash());
      return index?.members[0] as MemberRecord;
    };
    const check = () => checkMember(cacheDir, record(), checkMemo());
    expect(Object.keys(record().stats)).toContain(helper);

    await sleep(50); // past the file system's timestamp tick (what the racy window is for)
    await utimes(helper, 1_700_000_100, 1_700_000_100);
    const touched = await check();
    expect(built.id).toBe(`${cacheDir}\0${record().key}`);
    expect(touched?.[helper]).toBeDefined();
    expect(touched?.[helper]).not.toBe(record().stats[helper]);

    await writeFile(helper, (await readFile(helper, "utf8")).replace("tool 0", "tool 9"));
    await utimes(helper, 1_700_000_000, 1_700_000_000);
    expect((await stat(helper)).mtimeMs).toBe(1_700_000_000_000);
    expect(await check()).toBeUndefined();
  });

  it("read only (a tool host's view of the host's packs): serves what is current, builds and writes nothing", async () => {
    const cacheDir = join(root, "cache-read-only");
    const entries = await writeTools("read-only", 3);
    const host = new EsbuildQueue(cacheDir, countingBatch().batch);
    const built = await Promise.all(entries.map((entry) => host.compile(entry)));
    await host.settle();

    const edited = entries[1] as string;
    await writeFile(edited, (await readFile(edited, "utf8")).replace("name: label", 'name: label + "!"'));
    const indexes = async () => {
      const names = (await readdir(join(cacheDir, "index"))).sort();
      return Promise.all(names.map((name) => readFile(join(cacheDir, "index", name), "utf8")));
    };
    const indexBefore = await indexes();
    const child = countingBatch();
    const queue = new EsbuildQueue(cacheDir, child.batch, undefined, { readOnly: true });
    const results = await Promise.allSettled(entries.map((entry) => queue.compile(entry)));
    await queue.settle();
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[0] as PromiseFulfilledResult<{ id: string }>).value.id).toBe(built[0]?.id);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(PackMissing);
    await expect(queue.alone(entries[0] as string)).rejects.toBeInstanceOf(PackMissing);
    expect(child.builds).toEqual([]);
    expect(await indexes()).toEqual(indexBefore);
  });
});
