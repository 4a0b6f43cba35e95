import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EsbuildQueue } from "../../src/build/esbuild-queue.js";
import { createModuleCompiler } from "../../src/build/module-compiler.js";
import { EsbuildBatch } from "../../src/compile/esbuild-batch.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/**
 * A tool whose pack its host built into `packs/`, and a tool host's compiler (its own cache,
 * the host's packs read only) that has checked it and not yet imported it.
 */
async function checkedByToolHost(prefix: string) {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  folders.push(root);
  const entry = join(root, "tools", "greet.ts");
  await mkdir(join(root, "tools"), { recursive: true });
  await writeFile(entry, `export default () => ({ name: "greet" });\n`);
  const packsDir = join(root, "packs");
  const batch = new EsbuildBatch();
  const host = new EsbuildQueue(packsDir, batch);
  await host.compile(entry);
  await host.settle();
  await batch.close();
  const compiler = createModuleCompiler("esbuild", join(root, "own-cache"), () => {}, packsDir);
  return { packsDir, compiler, prepared: await compiler.prepare(entry) };
}

// A tool host reads the packs its host built, read only. Another process with the same cache
// (a second session, `tooldock validate`) may rebuild and remove a pack after the tool host
// checked it and before it imports it: the module is then compiled with jiti, not failed.
describe("a tool host's pack removed after its check", () => {
  it("is evaluated with jiti instead", async () => {
    const { packsDir, compiler, prepared } = await checkedByToolHost("tooldock-pack-removed-");
    for (const name of await readdir(join(packsDir, "bundles"))) await rm(join(packsDir, "bundles", name));
    const namespace = (await prepared.evaluate()) as { default: () => { name: string } };
    expect(namespace.default().name).toBe("greet");
    await compiler.close();
  });

  // The tool host may not write its host's packs, so the removal of a pack it cannot import
  // may fail (ERR_ACCESS_DENIED under the permission model; here a folder in the pack's place,
  // which rmSync refuses too): the module is still compiled with jiti, nothing rejects.
  it("is evaluated with jiti when the pack can be neither imported nor removed", async () => {
    const { packsDir, compiler, prepared } = await checkedByToolHost("tooldock-pack-stuck-");
    for (const name of await readdir(join(packsDir, "bundles"))) {
      await rm(join(packsDir, "bundles", name));
      await mkdir(join(packsDir, "bundles", name));
    }
    const namespace = (await prepared.evaluate()) as { default: () => { name: string } };
    expect(namespace.default().name).toBe("greet");
    await compiler.close();
  });
});
