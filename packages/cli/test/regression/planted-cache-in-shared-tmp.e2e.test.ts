import { chmod, mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

// Bug: the default compile cache was <tmpdir>/tooldock-cache, a folder any user could create
// first and fill with bundles that `tooldock validate` / `call` then ran (see the loader's
// regression test of the same name). A cache folder that others can write is now not used
// for bundles: in-process the run succeeds with one W_CACHE_UNSAFE warning; isolated (the
// default of validate) the tool hosts compile only in a private folder of their own there.
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

  const load = async (mode: string[]) => {
    const run = await runCli(["validate", "first.ts", "second.ts", "--format", "json", ...mode], {
      cwd: dir.path,
      env: { TOOLDOCK_CACHE_DIR: cache },
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      diagnostics: Array<{ code: string; message: string; hint?: string }>;
      tools: Array<{ name: string }>;
    };
    expect(report.tools.map((entry) => entry.name)).toEqual(["first_tool", "second_tool"]);
    return report;
  };

  it("loads without it and warns once (--no-isolate)", async () => {
    const report = await load(["--no-isolate"]);
    expect(report.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["W_CACHE_UNSAFE"]);
    expect(report.diagnostics[0]?.message).toContain(`${cache} is writable by group or others (mode 777)`);
    expect(report.diagnostics[0]?.hint).toContain("TOOLDOCK_CACHE_DIR");
  });

  it("loads in the tool hosts (isolated, the default), which write only in a private folder of their own", async () => {
    await load([]);
    // The loader gives the tool host <cache>/tool-host, created 0700 by this user; nothing of
    // the shared folder itself is read or written. No packs are built for the tool host there
    // (<cache>/tool-host-packs): the CLI reads its packs' index back, and another user could
    // rename a folder of a shared one and put their own in its place.
    expect(await readdir(cache)).toEqual(["tool-host"]);
    expect((await stat(join(cache, "tool-host"))).mode & 0o777).toBe(0o700);
  });
});
