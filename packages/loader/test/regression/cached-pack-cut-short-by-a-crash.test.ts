// Attack (by the machine): a crash right after the cache renamed a new pack into place, before
// the file system had written its data, left the pack empty or cut short. Every later load
// imported it and failed the good module (a syntax error blamed on the module) until someone
// cleared the cache. Fix: packs are flushed to the disk before the rename, and the index
// records each pack's size; a pack of another size is built again from the sources.
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { builtEntry, testCacheDir } from "../helpers.js";
import { echoToolSource } from "../tool-sources.js";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

/** A load and a call in a process of its own, as every later run of a host is. */
async function load(dir: string, cacheDir: string) {
  const script = `
import { loadCustomTools } from ${JSON.stringify(builtEntry("loader"))};
import { Session } from ${JSON.stringify(builtEntry("runtime"))};
const session = new Session({ cwd: ${JSON.stringify(dir)} });
const result = await loadCustomTools({ paths: [${JSON.stringify(dir)}], cwd: ${JSON.stringify(dir)},
  cacheDir: ${JSON.stringify(cacheDir)}, session, compiler: "esbuild" });
const call = await session.execute({ toolCallId: "c", name: "kept", params: {} });
await session.dispose();
console.log(JSON.stringify({ diagnostics: result.diagnostics.map((d) => d.code + " " + d.message), call }));
`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  return JSON.parse(stdout) as { diagnostics: string[]; call: { isError?: boolean; content: unknown } };
}

describe("regression: a cached pack cut short by a crash", () => {
  it.each([
    ["emptied", 0],
    ["cut in half", 0.5],
  ])("is built again when %s, and the module loads as before", async (_how, fraction) => {
    const root = testCacheDir("pack-cut-short");
    roots.push(root);
    const dir = join(root, "tools");
    const cacheDir = join(root, "cache");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "kept.ts"), echoToolSource("kept", "still here"));
    const first = await load(dir, cacheDir);
    expect(first.diagnostics).toEqual([]);
    const bundles = join(cacheDir, "bundles");
    const [pack] = (await readdir(bundles)).filter((name) => name.endsWith(".mjs"));
    expect(pack).toBeDefined();
    const path = join(bundles, pack as string);
    const whole = await readFile(path, "utf8");
    await truncate(path, Math.floor(whole.length * fraction));

    const again = await load(dir, cacheDir);
    expect(again.diagnostics).toEqual([]);
    expect(again.call.isError).toBeFalsy();
    expect(again.call.content).toEqual(first.call.content);
    expect(await readFile(path, "utf8")).toBe(whole);
  });
});
