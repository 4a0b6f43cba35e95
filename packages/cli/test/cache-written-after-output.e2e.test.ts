import { createHash } from "node:crypto";
import { chmod, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureRuntime } from "../../../scripts/runtimes.mjs";
import { assertBuilt, cliBin, runProcess, tempDir } from "./cli-process.js";

/**
 * On Node 22.15+ a command whose tools are not cached loads them file by file and prints its
 * output first; the packs are built after, before the process ends (the loader's "Cold loads").
 * Run under Node 24 from the registry: the suite's Node 20 bundles before it loads.
 */
let node = "";
beforeAll(async () => {
  assertBuilt();
  node = await ensureRuntime("node@24", { cacheDir: process.env.TOOLDOCK_TEST_RUNTIMES_CACHE });
}, 600_000);

const TOOL =
  'export default (pi: any) => ({ name: "plain", label: "plain", description: "A plain tool.", parameters: pi.typebox.Type.Object({}), execute: async () => ({ content: [] }) });\n';

describe("tooldock on Node 24 with a cold cache", () => {
  it("lists the tools, and the cache holds their pack once the process has ended", {
    timeout: 120_000,
  }, async () => {
    const folder = await tempDir({ "tools/plain.ts": TOOL });
    try {
      const env = { TOOLDOCK_CACHE_DIR: join(folder.path, "cache") };
      const run = await runProcess(node, [cliBin, "list", join(folder.path, "tools")], { env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("plain");
      expect((await readdir(join(folder.path, "cache", "bundles"))).length).toBeGreaterThan(0);
    } finally {
      await folder.remove();
    }
  });

  it("says on stderr when the packs cannot be written, and still lists the tools", {
    timeout: 120_000,
  }, async () => {
    const folder = await tempDir({ "tools/plain.ts": TOOL });
    try {
      const cache = join(folder.path, "cache");
      // A folder where the index of the tool's pack goes: the write after the load fails.
      const entry = join(folder.path, "tools", "plain.ts");
      await mkdir(
        join(cache, "index", `${createHash("sha256").update(entry).digest("hex").slice(0, 32)}.json`),
        {
          recursive: true,
        },
      );
      await chmod(cache, 0o700);
      await chmod(join(cache, "index"), 0o700);
      const run = await runProcess(node, [cliBin, "list", join(folder.path, "tools")], {
        env: { TOOLDOCK_CACHE_DIR: cache },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("plain");
      expect(run.stderr).toMatch(
        /W_CACHE_UNWRITABLE: esbuild cannot write the compile cache in .*compiled again/,
      );
    } finally {
      await folder.remove();
    }
  });
});
