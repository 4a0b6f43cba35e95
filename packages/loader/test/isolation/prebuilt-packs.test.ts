import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load, project, text } from "./isolation-helpers.js";

function tool(name: string): string {
  return `
    import { Type } from "@sinclair/typebox";
    import { greet } from "./helper.js";
    export default () => ({
      name: ${JSON.stringify(name)},
      label: ${JSON.stringify(name)},
      description: "Greets",
      parameters: Type.Object({}),
      async execute() { return { content: [{ type: "text", text: greet(${JSON.stringify(name)}) }] }; },
    });
  `;
}

/** Three tool folders, each an entry and a helper it imports. */
function threeTools(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ["alpha", "beta", "gamma"]) {
    files[`${name}/index.ts`] = tool(name);
    files[`${name}/helper.ts`] = `export const greet = (name: string): string => "hello from " + name;`;
  }
  return files;
}

/** The files in `folder` (none when it does not exist). */
async function filesIn(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

describe("the packs the host builds for its tool host", () => {
  it("are what the tool host evaluates: it compiles nothing itself", async () => {
    const where = await project(threeTools());
    const { session, tools, diagnostics } = await load(where, "process");
    expect(diagnostics).toEqual([]);
    expect(tools.map(({ tool }) => tool.name)).toEqual(["alpha", "beta", "gamma"]);
    const result = await session.execute({ toolCallId: "1", name: "gamma", params: {} });
    expect(text(result)).toBe("hello from gamma");

    const cache = join(where.root, "cache");
    const [packs] = await readdir(join(cache, "tool-host-packs"));
    const [own] = await readdir(join(cache, "tool-host"));
    expect(
      (await filesIn(join(cache, "tool-host-packs", packs as string, "bundles"))).length,
    ).toBeGreaterThan(0);
    // jiti writes its cache as it compiles: the tool host compiled nothing.
    expect(await filesIn(join(cache, "tool-host", own as string, "jiti"))).toEqual([]);
  });
});

describe("the code caches of a tool host", () => {
  it("are kept in its private cache, never beside its host's packs, and the next tool host runs from them", async () => {
    const where = await project(threeTools());
    const cache = join(where.root, "cache");
    const codeCaches = async () => {
      const [own] = await readdir(join(cache, "tool-host"));
      const folder = join(cache, "tool-host", own as string, "code");
      const names = (await filesIn(folder)).filter((name) => name.endsWith(".code")).sort();
      return Promise.all(names.map(async (name) => ({ name, ino: (await stat(join(folder, name))).ino })));
    };
    // Written once a tool host's load has run the factories (before it answers anything else).
    for (let round = 0; round < 2; round++) {
      const { session, isolated } = await load(where, "process");
      expect(text(await session.execute({ toolCallId: "1", name: "beta", params: {} }))).toBe(
        "hello from beta",
      );
      await isolated?.close();
    }
    const written = await codeCaches();
    expect(written.length).toBeGreaterThan(0);
    const [packs] = await readdir(join(cache, "tool-host-packs"));
    const beside = await filesIn(join(cache, "tool-host-packs", packs as string, "bundles"));
    expect(beside.filter((name) => name.endsWith(".code"))).toEqual([]);
    // A third tool host reads them and, V8 having taken them, writes none anew.
    const { session, isolated } = await load(where, "process");
    expect(text(await session.execute({ toolCallId: "1", name: "gamma", params: {} }))).toBe(
      "hello from gamma",
    );
    await isolated?.close();
    expect(await codeCaches()).toEqual(written);
  });
});
