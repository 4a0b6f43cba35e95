import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type * as Esbuild from "esbuild";
import * as esbuild from "esbuild";
import { afterAll, expect, it } from "vitest";
import { type EntryGroup, EsbuildQueue } from "../../src/build/esbuild-queue.js";
import { readGroupIndex } from "../../src/compile/cache-index.js";
import { testCacheDir } from "../helpers.js";

// Attack (a race on a cold load): a module asked for before its group is complete used to be
// built on its own, and the group packed whole once complete. When the pack's build finished
// first, the module's own build wrote its index afterwards, without the pack: from then on
// every start imported it on its own, beside a pack that held it too. A member asked for early
// now waits for its group (discovery never waits for a module), and a group is built once.

const root = testCacheDir("member-alone-after-pack");
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it("builds a member asked for before its group is complete once, with its group, and indexes the group's pack", async () => {
  const dir = join(root, "tools");
  await mkdir(dir, { recursive: true });
  const entries = ["a-one.ts", "b-two.ts", "c-three.ts"].map((name) => join(dir, name));
  for (const entry of entries) await writeFile(entry, `export default () => "${entry}";\n`);
  const cacheDir = join(root, "cache");

  const builds: string[][] = [];
  const build = (async (options: Esbuild.BuildOptions) => {
    builds.push((options.entryPoints as Array<{ in: string }>).map((point) => point.in));
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

  // Asked for while its group is still being discovered: nothing is built yet.
  const first = queue.compile(entries[0] as string);
  let settled = false;
  first.then(
    () => {
      settled = true;
    },
    () => {},
  );
  await new Promise((resolve) => setImmediate(resolve));
  expect(builds).toEqual([]);
  expect(settled).toBe(false);
  group.closed = true;
  complete();
  const compiled = await first;
  await Promise.all(entries.slice(1).map((entry) => queue.compile(entry)));
  await queue.settle();

  // One build, of the whole group as one pack; its index names that pack for every member.
  expect(builds).toEqual([["tooldock-pack:0"]]);
  const index = readGroupIndex(cacheDir, entries[0] as string);
  expect(index?.members.map((member) => [member.entry, member.pack, member.index])).toEqual(
    entries.map((entry, at) => [entry, compiled.pack.id, at]),
  );

  // The next start finds every member in the pack.
  const next = new EsbuildQueue(cacheDir, { esbuild: async () => esbuild }, { groupOf: () => group });
  const again = await next.compile(entries[0] as string);
  expect(again.fromCache).toBe(true);
  expect(again.pack).toEqual(compiled.pack);
  await next.settle();
  await esbuild.stop();
});
