// Attack (a newcomer's trap rather than an adversary's): the scaffold's manifest listed its one
// tool file, so a second tool added to tools/ was silently never loaded, and its generated
// test asserted the exact tool list, so it broke as soon as the manifest was fixed by hand.
// The manifest now lists the tools folder and the test checks its own tool is among them.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolHarness } from "@tooldock/loader/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scaffoldToolPackage } from "../../src/init/scaffold.js";
import { testTemplate } from "../../src/init/scaffold-templates.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tooldock-second-tool-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const SECOND_TOOL = `import type { CustomToolAPI } from "@tooldock/sdk";
import { defineTool, defineToolFactory, textResult } from "@tooldock/sdk";

export default defineToolFactory((pi: CustomToolAPI) =>
  defineTool({
    name: "char_count",
    label: "Char count",
    description: "Count the characters of a text.",
    parameters: pi.typebox.Type.Object(
      { text: pi.typebox.Type.String({ description: "The text" }) },
      { additionalProperties: false },
    ),
    async execute(_id, params) {
      return textResult(String(params.text.length));
    },
  }),
);
`;

describe("a scaffold with a second tool", () => {
  it("loads both tools from its package folder", async () => {
    const { directory, names } = await scaffoldToolPackage({
      directory: "word-tools",
      cwd: root,
      version: "0.1.0",
    });
    await writeFile(join(directory, "tools", "char-count.ts"), SECOND_TOOL);
    const harness = await createToolHarness({ paths: directory, cacheDir: join(root, "cache") });
    try {
      expect(harness.diagnostics).toEqual([]);
      expect(harness.tools.map((loaded) => loaded.tool.name).sort()).toEqual(["char_count", names.toolName]);
    } finally {
      await harness.dispose();
    }
  });

  it("its generated test asserts its own tool is loaded, not the exact list", () => {
    const test = testTemplate({
      packageName: "p",
      toolName: "word_count",
      fileStem: "word-count",
      label: "W",
    });
    expect(test).toContain('.toContain("word_count")');
    expect(test).not.toContain('.toEqual(["word_count"])');
  });
});
