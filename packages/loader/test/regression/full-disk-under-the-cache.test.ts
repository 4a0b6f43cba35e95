// Attack (by the machine): a full disk under the compile cache. esbuild's pack could not be
// written, the warning said the load went on with jiti "without a cache", and then jiti wrote
// its transform cache into the same full disk: every module failed with ENOSPC, blamed on the
// module. Fix: a cache that cannot be written means no cache at all, for every compiler; a
// write that fails in jiti's own cache is retried without it, with one warning.
//
// The full disk is a file size limit (`ulimit -f 0`: every write of a byte fails with EFBIG,
// once SIGXFSZ is ignored), in a process of its own.
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { perFileAvailable } from "../../src/compile/per-file/per-file-available.js";
import { builtEntry, testCacheDir } from "../helpers.js";
import { echoToolSource } from "../tool-sources.js";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("regression: a full disk under the compile cache", () => {
  it.each(["esbuild", "jiti"] as const)(
    "loads every module with %s, without a cache, and warns once",
    async (compiler) => {
      const root = testCacheDir(`full-disk-${compiler}`);
      roots.push(root);
      const dir = join(root, "tools");
      await mkdir(dir, { recursive: true });
      for (const name of ["one", "two"])
        await writeFile(join(dir, `${name}.ts`), echoToolSource(name, `${name} ok`));
      const script = join(root, "load.mjs");
      await writeFile(
        script,
        `process.on("SIGXFSZ", () => {});
import { loadCustomTools } from ${JSON.stringify(builtEntry("loader"))};
import { Session } from ${JSON.stringify(builtEntry("runtime"))};
const session = new Session({ cwd: ${JSON.stringify(dir)} });
const result = await loadCustomTools({ paths: [${JSON.stringify(dir)}], cwd: ${JSON.stringify(dir)},
  cacheDir: ${JSON.stringify(join(root, "cache"))}, session, compiler: ${JSON.stringify(compiler)} });
const call = await session.execute({ toolCallId: "c", name: "two", params: {} });
const cached = await result.cached;
console.log(JSON.stringify({ tools: result.tools.map(({ tool }) => tool.name),
  diagnostics: result.diagnostics.map((d) => d.code + " " + d.message), text: call.content[0]?.text,
  cached: cached.map((d) => d.code + " " + d.message) }));
`,
      );
      const { stdout } = await promisify(execFile)(
        "/bin/sh",
        ["-c", `ulimit -f 0 && exec "$0" "$1"`, process.execPath, script],
        { encoding: "utf8" },
      );
      const report = JSON.parse(stdout) as {
        tools: string[];
        diagnostics: string[];
        text: string;
        cached: string[];
      };
      expect(report.tools.sort()).toEqual(["one", "two"]);
      expect(report.text).toBe("two ok");
      // On Node 22.15+ esbuild's misses load file by file and their packs are written after the
      // load: the warning comes with `cached`. Elsewhere the load itself met the full disk.
      const afterLoad = compiler === "esbuild" && perFileAvailable();
      const [warned, quiet] = afterLoad
        ? [report.cached, report.diagnostics]
        : [report.diagnostics, report.cached];
      expect(quiet).toEqual([]);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatch(/^W_CACHE_UNWRITABLE .*cannot write the compile cache/);
    },
    60_000,
  );
});
