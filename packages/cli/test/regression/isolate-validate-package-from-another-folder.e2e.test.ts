// Found by a bug hunt: `tooldock validate ../pkg` (isolated, the default) failed a package whose
// module imports a file of another of its folders (`tools/a.ts` → `../lib/util.ts`), while the
// same command run inside the package passed: each module's tool host read only the module's
// own folder and the working folder, not the tool path it was found in. The error read
// "Access to this API has been restricted", with a hint to fix the module's top level (and,
// on Node 22+, Node's advice to use --allow-fs-read, no flag of tooldock's).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";

const PACKAGE = {
  "pkg/package.json": JSON.stringify({ name: "pkg", type: "module", tooldock: { tools: ["tools"] } }),
  "pkg/lib/util.ts": 'export const greeting = (name: string) => "hello " + name;\n',
  "pkg/tools/a.ts": `import { greeting } from "../lib/util.ts";
export default (pi: any) => ({
  name: "greet",
  label: "Greet",
  description: "Greets",
  parameters: pi.typebox.Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: greeting("you") }] }),
});
`,
  "elsewhere/.keep": "",
};

beforeAll(assertBuilt);

let dir: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  dir = await tempDir(PACKAGE);
});

afterEach(async () => {
  await dir.remove();
});

describe("tooldock validate of a package from another folder", () => {
  it("passes: each module's tool host reads the tool path it was found in", async () => {
    const run = await runCli(["validate", "../pkg"], { cwd: `${dir.path}/elsewhere` });
    expect(run.stdout + run.stderr).toContain("1 module, 1 tool, 0 errors");
    expect(run.code).toBe(0);
  });

  it("says what the tool host may not read, and which flag grants it, when a module reaches outside", async () => {
    const run = await runCli(["validate", "../pkg/tools"], { cwd: `${dir.path}/elsewhere` });
    const output = run.stdout + run.stderr;
    expect(run.code).toBe(1);
    expect(output).toContain("its tool host may not read");
    expect(output).toContain("util.ts");
    expect(output).toContain("--allow-read");
    expect(output).not.toContain("--allow-fs-read");
    const granted = await runCli(["validate", "../pkg/tools", "--allow-read", "../pkg/lib"], {
      cwd: `${dir.path}/elsewhere`,
    });
    expect(granted.code).toBe(0);
  });
});
