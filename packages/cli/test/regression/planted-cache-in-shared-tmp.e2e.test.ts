import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

// Bug: the default compile cache was <tmpdir>/tooldock-cache, a folder any user could create
// first and fill with bundles that `tooldock validate` / `call` then ran (see the loader's
// regression test of the same name). A cache folder that others can write is now not used
// at all: the run still succeeds, with one W_CACHE_UNSAFE warning, also with --isolate
// (where every child process finds the same folder).
const tool = (name: string) => `export default (pi: any) => ({
  name: "${name}",
  label: "${name}",
  description: "A tool.",
  parameters: pi.typebox.Type.Object({}),
  async execute() {
    return { content: [{ type: "text" as const, text: "ok" }] };
  },
});
`;

describe.runIf(typeof process.getuid === "function")("tooldock validate with a shared cache folder", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let cache: string;
  beforeAll(async () => {
    assertBuilt();
    dir = await tempDir({ "first.ts": tool("first_tool"), "second.ts": tool("second_tool") });
    cache = join(dir.path, "shared", "tooldock-cache");
    await mkdir(cache, { recursive: true });
    await chmod(cache, 0o777);
  });
  afterAll(async () => {
    await dir?.remove();
  });

  for (const isolate of [false, true]) {
    it(`loads without it and warns once${isolate ? " (--isolate)" : ""}`, async () => {
      const run = await runCli(
        ["validate", "first.ts", "second.ts", "--format", "json", ...(isolate ? ["--isolate"] : [])],
        { cwd: dir.path, env: { TOOLDOCK_CACHE_DIR: cache } },
      );
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as {
        diagnostics: Array<{ code: string; message: string; hint?: string }>;
        tools: Array<{ name: string }>;
      };
      expect(report.tools.map((entry) => entry.name)).toEqual(["first_tool", "second_tool"]);
      expect(report.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_CACHE_UNSAFE"]);
      expect(report.diagnostics[0]?.message).toContain(`${cache} is writable by group or others (mode 777)`);
      expect(report.diagnostics[0]?.hint).toContain("TOOLDOCK_CACHE_DIR");
    });
  }
});
