import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type * as Esbuild from "esbuild";
import * as esbuild from "esbuild";
import { afterAll, expect, it } from "vitest";
import { type EntryGroup, EsbuildQueue } from "../../src/build/esbuild-queue.js";
import { readBundleIndex } from "../../src/compile/bundle-index.js";
import { testCacheDir } from "../helpers.js";

// Attack (a race on a cold load): a module asked for before its group is complete is built
// on its own; once the group is complete it is packed whole from the sources. When the pack's
// build finishes first, the module's own build used to write its index afterwards, without
// the pack: from then on every start imported it on its own, beside a pack that holds it too.

const root = testCacheDir("member-alone-after-pack");
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it("keeps the pack in the index of a member whose own build ends after its group was packed", async () => {
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  const entries = ["a-one.ts", "b-two.ts", "c-three.ts"].map((name) => join(dir, name));
  for (const entry of entries) await writeFile(entry, `export default () => "${entry}";\n`);
  const cacheDir = join(root, "cache");

  // A build of one tool on its own waits until the group's pack was written.
  let release = () => {};
  const packed = new Promise<void>((resolve) => {
    release = resolve;
  });
  const build = (async (options: Esbuild.BuildOptions) => {
    const points = options.entryPoints as Array<{ in: string }>;
    if (!points.some((point) => point.in.startsWith("tooldock-source-pack:"))) await packed;
    return esbuild.build(options);
  }) as typeof esbuild.build;
  const batch = { esbuild: async () => ({ ...esbuild, build }) };

  let complete = () => {};
  const group = {
    entries,
    closed: false,
    complete: new Promise<void>((resolve) => {
      complete = resolve;
    }),
  } as { entries: string[]; closed: boolean; complete: Promise<void> } satisfies EntryGroup;
  const queue = new EsbuildQueue(cacheDir, batch, {
    groupOf: (entry) => (entries.includes(entry) ? group : undefined),
  });

  // Asked for while its group is still being discovered: built on its own (held back above).
  const first = queue.compile(entries[0] as string);
  await new Promise((resolve) => setTimeout(resolve, 50));
  group.closed = true;
  complete(); // the group is packed whole, and its pack written first
  for (let tries = 0; readBundleIndex(cacheDir, entries[1] as string)?.pack === undefined; tries += 1) {
    if (tries > 400) throw new Error("the group's pack was never written");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  release();
  await first;
  await queue.settle();

  const indexes = entries.map((entry) => readBundleIndex(cacheDir, entry));
  const id = indexes[1]?.pack?.id;
  expect(id).toBeDefined();
  expect(indexes.map((index) => index?.pack)).toEqual([0, 1, 2].map((index) => ({ id, index })));

  // The next start finds every member in the pack.
  const next = new EsbuildQueue(cacheDir, { esbuild: async () => esbuild });
  const again = await next.compile(entries[0] as string);
  expect(again.fromCache).toBe(true);
  expect(again.pack).toEqual({ id, index: 0 });
  await next.settle();
  await esbuild.stop();
});
