// Attack (by mistake as often as not): `tooldock validate . --output package.json` in a tool
// package read the package's manifest to find its modules, then replaced it with the report.
// Fix: --output refuses an existing package.json or tsconfig*.json (what a load reads) before
// anything is loaded, and nothing is written.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/run.js";
import { memoryIo, workFolder } from "../memory-io.js";

const MODULE = `export default (pi) => ({
  name: "kept",
  label: "Kept",
  description: "Its package must survive validate --output.",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [] }),
});
`;
const MANIFEST = `${JSON.stringify({ name: "my-tools", tooldock: { tools: ["tools/x.mjs"] } }, null, 2)}\n`;
const TSCONFIG = `${JSON.stringify({ compilerOptions: { strict: true } })}\n`;

describe("regression: validate --output onto the manifest it read", () => {
  let folder: Awaited<ReturnType<typeof workFolder>>;
  beforeEach(async () => {
    folder = await workFolder({
      "package.json": MANIFEST,
      "tsconfig.json": TSCONFIG,
      "tsconfig.build.json": TSCONFIG,
      "tools/x.mjs": MODULE,
    });
  });
  afterEach(() => folder.remove());

  it.each([
    ["package.json", MANIFEST],
    ["./tools/../package.json", MANIFEST],
    ["tsconfig.json", TSCONFIG],
    ["tsconfig.build.json", TSCONFIG],
  ])("refuses --output %s with exit code 2 and leaves it as it was", async (output, before) => {
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(["validate", ".", "--no-isolate", "--output", output], memory.io);
    expect(code).toBe(2);
    expect(memory.stderr()).toContain("is a package manifest or a compiler configuration");
    expect(await readFile(join(folder.path, output), "utf8")).toBe(before);
  });

  it("still writes a report to a new file beside them", async () => {
    const memory = memoryIo(folder.path, folder.env);
    const code = await run(
      ["validate", ".", "--no-isolate", "--output", "report.json", "--format", "json"],
      memory.io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(await readFile(join(folder.path, "report.json"), "utf8"))).toMatchObject({
      summary: expect.anything(),
    });
  });
});
