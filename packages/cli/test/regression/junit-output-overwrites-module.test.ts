import { link, mkdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/run.js";
import { memoryIo, workFolder } from "../memory-io.js";

// Attack (by mistake as often as not): `tooldock validate x.ts --format junit --output x.ts`
// replaced the tool module with the XML report.
const MODULE = `export default (pi) => ({
  name: "kept",
  label: "Kept",
  description: "Must survive validate --output.",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
});
`;

describe("validate --output onto a module or an input", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  const moduleText = () => readFile(join(folder.path, "tools/x.mjs"), "utf8");

  beforeEach(async () => {
    folder = await workFolder({ "tools/x.mjs": MODULE, "lib/helper.ts": "export const helper = 1;\n" });
  });
  afterEach(() => folder.remove());

  it.each([
    ["the input module itself", ["tools/x.mjs"], "tools/x.mjs", "is the input tools/x.mjs"],
    ["a module found in the input folder", ["tools"], "tools/x.mjs", "is the tool module"],
    ["the same module by another spelling", ["tools"], "./tools/../tools/x.mjs", "is the tool module"],
    ["an input folder", ["tools"], "tools", "is a folder"],
    [
      "an existing source file beside the modules",
      ["tools/x.mjs"],
      "lib/helper.ts",
      "is an existing source file",
    ],
  ])("refuses %s with exit code 2 and writes nothing", async (_case, inputs, output, reason) => {
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(["validate", ...inputs, "--format", "junit", "--output", output], memory.io);
    expect(code).toBe(2);
    expect(memory.stderr()).toContain(`--output ${output} ${reason}`);
    expect(memory.stderr()).toContain("give a new file for the report");
    expect(await moduleText()).toBe(MODULE);
    expect(await readFile(join(folder.path, "lib/helper.ts"), "utf8")).toBe("export const helper = 1;\n");
  });

  it('refuses an empty --output, naming what it needs (found by a bug hunt: it said "--output  is a folder")', async () => {
    const memory = memoryIo(folder.path, folder.env);
    expect(await run(["validate", "tools", "--format", "junit", "--output", ""], memory.io)).toBe(2);
    expect(memory.stderr()).toContain("--output needs a file path for the report");
  });

  it("refuses a symbolic or a hard link to a module", async () => {
    await symlink(join(folder.path, "tools/x.mjs"), join(folder.path, "report-link.xml"));
    await link(join(folder.path, "tools/x.mjs"), join(folder.path, "report-hard.xml"));
    for (const output of ["report-link.xml", "report-hard.xml"]) {
      const memory = memoryIo(folder.path, folder.env);
      expect(await run(["validate", "tools", "--format", "junit", "--output", output], memory.io)).toBe(2);
      expect(memory.stderr()).toContain("is the tool module");
    }
    expect(await moduleText()).toBe(MODULE);
  });

  it("still writes a report to a new file", async () => {
    await mkdir(join(folder.path, "reports"));
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(
      ["validate", "tools", "--format", "junit", "--output", "reports/t.xml"],
      memory.io,
    );
    expect(code).toBe(0);
    expect(await readFile(join(folder.path, "reports/t.xml"), "utf8")).toContain("<testsuites");
    expect(await moduleText()).toBe(MODULE);
  });
});
