// scripts/runtimes.mjs: installs a runtime from the npm registry into a private per-user cache,
// reuses it, and refuses a cache another user could plant a binary in.
import { execFile } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime, parseRuntimeSpec, runtimesCacheDir } from "./runtimes.mjs";

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/**
 * The runtime cache of this test: the per-run `$XDG_CACHE_HOME/tooldock-runtimes` (so the first
 * test really downloads, about 50 MB in 5-10 s), or a pre-populated cache named by
 * TOOLDOCK_RUNTIMES_TEST_DIR for offline runs (then the first test reuses what is there).
 */
const runtimeCache = process.env.TOOLDOCK_RUNTIMES_TEST_DIR ?? runtimesCacheDir();
let scratch = "";

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "tooldock-runtimes-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("scripts/runtimes.mjs", () => {
  it("reads runtime specs and says how to write one", () => {
    expect(parseRuntimeSpec("node@24")).toEqual({ runtime: "node", version: "24" });
    expect(parseRuntimeSpec("bun@1.4.4")).toEqual({ runtime: "bun", version: "1.4.4" });
    expect(() => parseRuntimeSpec("node@^24")).toThrow(/write <runtime>@<version>, e.g. node@24/);
    expect(() => parseRuntimeSpec("deno@2")).toThrow(/cannot read "deno@2"/);
  });

  it("installs node@24 from the npm registry and returns a binary that runs", {
    timeout: 180_000,
  }, async () => {
    // npm's own download cache inside this test's folder: the test writes nothing in ~/.npm.
    const binary = await ensureRuntime("node@24", { cacheDir: runtimeCache, npmCache: join(scratch, "npm") });
    expect(binary.startsWith(`${runtimeCache}/node-24.`)).toBe(true);
    expect(binary.endsWith("/bin/node")).toBe(true);
    const version = await run(binary, ["--version"]);
    expect(version.stdout).toMatch(/^v24\.\d+\.\d+\n$/);
    const script = await run(binary, [
      "-e",
      "process.stdout.write(String(process.versions.node.split('.')[0]))",
    ]);
    expect(script.stdout).toBe("24");
    // Nothing half-installed is left next to it, and no one else may write it.
    expect((await readdir(runtimeCache)).filter((name) => name.startsWith(".partial-"))).toEqual([]);
    expect((await stat(binary)).mode & 0o022).toBe(0);
    // Created by this test (not pre-populated): 0700, as a new cache folder is.
    if (!process.env.TOOLDOCK_RUNTIMES_TEST_DIR) expect((await stat(runtimeCache)).mode & 0o777).toBe(0o700);
  });

  it("reuses the installed runtime without asking the registry", { timeout: 60_000 }, async () => {
    const first = await ensureRuntime("node@24", { cacheDir: runtimeCache });
    const before = await stat(first);
    // An npm that does not exist: any attempt to reach the registry would fail.
    const again = await ensureRuntime("node@24", { cacheDir: runtimeCache, npm: join(scratch, "no-npm") });
    expect(again).toBe(first);
    const after = await stat(again);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await run(again, ["--version"])).stdout).toMatch(/^v24\./);
  });

  describe("refuses a cache another user could plant a binary in", () => {
    const noNpm = () => join(scratch, "no-npm");

    it("a world-writable or group-writable folder", async () => {
      for (const mode of [0o777, 0o775, 0o757]) {
        const planted = await mkdtemp(join(scratch, "planted-"));
        await chmod(planted, mode);
        await expect(ensureRuntime("node@24", { cacheDir: planted, npm: noNpm() })).rejects.toThrow(
          `refusing the runtime cache ${planted}: group or others may write to it (mode 0${mode.toString(8)}`,
        );
      }
    });

    it("a symbolic link in place of the folder", async () => {
      const real = await mkdtemp(join(scratch, "real-"));
      const link = join(scratch, "link");
      await symlink(real, link);
      await expect(ensureRuntime("node@24", { cacheDir: link, npm: noNpm() })).rejects.toThrow(
        /is a symbolic link, not a real folder/,
      );
    });

    it("a folder inside a parent others may write to", async () => {
      const parent = await mkdtemp(join(scratch, "open-parent-"));
      await chmod(parent, 0o777);
      const cache = join(parent, "tooldock-runtimes");
      await mkdir(cache, { mode: 0o700 });
      await expect(ensureRuntime("node@24", { cacheDir: cache, npm: noNpm() })).rejects.toThrow(
        `its parent ${parent} may be written by group or others (mode 0777)`,
      );
    });

    it("a planted runtime whose binary others may write", async () => {
      const cache = await mkdtemp(join(scratch, "cache-"));
      await mkdir(join(cache, "node-24.99.0", "bin"), { recursive: true, mode: 0o755 });
      const binary = join(cache, "node-24.99.0", "bin", "node");
      await writeFile(binary, "#!/bin/sh\necho planted\n");
      await chmod(binary, 0o777);
      await expect(ensureRuntime("node@24", { cacheDir: cache, npm: noNpm() })).rejects.toThrow(
        `refusing ${binary}: ${binary} is not an executable regular file owned by you and writable by you only (mode 0777`,
      );
    });

    it.skipIf(!isRoot)("a folder owned by another user (needs root to plant one)", async () => {
      const planted = await mkdtemp(join(scratch, "other-"));
      await chmod(planted, 0o700);
      await chown(planted, 65534, 65534);
      await expect(ensureRuntime("node@24", { cacheDir: planted, npm: noNpm() })).rejects.toThrow(
        `refusing the runtime cache ${planted}: it is owned by uid 65534, not by you (uid 0)`,
      );
    });
  });
});
