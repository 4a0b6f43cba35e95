import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCustomTools } from "../../src/index.js";

/**
 * Accident: a factory threw a value that neither JSON nor String() can describe (a record
 * without a prototype that refers to itself). Describing it threw inside the loader, and the
 * module got an E_IMPORT asking for a Tooldock bug report instead of its E_FACTORY_THROW.
 */
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("a factory that throws a value nothing can describe", () => {
  it("is one E_FACTORY_THROW of its module, and the next module loads", async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-undescribable-")));
    folders.push(root);
    await mkdir(join(root, "tools"));
    await writeFile(
      join(root, "tools", "a-throws.ts"),
      "export default () => {\n  const thrown = Object.create(null);\n  thrown.self = thrown;\n  throw thrown;\n};\n",
    );
    await writeFile(
      join(root, "tools", "b-greets.ts"),
      'import { Type } from "@sinclair/typebox";\nexport default () => ({ name: "greet", label: "Greet", description: "Greets", parameters: Type.Object({}), execute: async () => ({ content: [] }) });\n',
    );
    const { tools, diagnostics, cached } = await loadCustomTools({
      paths: [join(root, "tools")],
      cwd: root,
      cacheDir: join(root, "cache"),
    });
    await cached; // written after the load on Node 22.15+: before the folder goes
    expect(diagnostics.map(({ code, path }) => [code, path])).toEqual([
      ["E_FACTORY_THROW", join(root, "tools", "a-throws.ts")],
    ]);
    expect(diagnostics[0]?.message).toMatch(/threw: \[object Object\]$/);
    expect(tools.map(({ tool }) => tool.name)).toEqual(["greet"]);
  });
});
