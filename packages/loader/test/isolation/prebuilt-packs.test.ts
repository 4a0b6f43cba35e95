import { readdir } from "node:fs/promises";
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
    const files: Record<string, string> = {};
    for (const name of ["alpha", "beta", "gamma"]) {
      files[`${name}/index.ts`] = tool(name);
      files[`${name}/helper.ts`] = `export const greet = (name: string): string => "hello from " + name;`;
    }
    const where = await project(files);
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
