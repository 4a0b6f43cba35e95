import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness } from "../../src/testing/index.js";

// A tool author's test of a folder whose module sat one level too deep (no index file) loaded
// no tool and no diagnostic, and `call` answered the isError of an unknown tool: a test
// expecting an isError result for bad arguments passed having tested nothing.
const WORD_COUNT = `
import { Type } from "@sinclair/typebox";
export default () => ({
  name: "word_count",
  label: "Word count",
  description: "Counts the words of a text",
  parameters: Type.Object({ text: Type.String() }),
  async execute(_id, params) {
    return { content: [{ type: "text", text: String(params.text.split(/\\s+/).length) }] };
  },
});
`;

let root = "";
afterEach(async () => {
  if (root !== "") await rm(root, { recursive: true, force: true });
});

async function folder(files: Record<string, string>): Promise<string> {
  root = await realpath(await mkdtemp(join(tmpdir(), "tooldock-harness-")));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe("a harness that would test nothing", () => {
  it("throws when no module was found in its paths, and says where modules are looked for", async () => {
    const cwd = await folder({ "moved/text/word-count.ts": WORD_COUNT });
    await expect(createToolHarness({ paths: "./moved", cwd })).rejects.toThrow(
      `createToolHarness: no tool module was found in ./moved (from ${cwd}), so there is nothing to test. ` +
        "A folder's modules are its top-level module files and each subfolder's index file",
    );
  });

  it("rejects a call of a tool the session does not have, naming those it has", async () => {
    const cwd = await folder({ "tools/word-count.ts": WORD_COUNT });
    const harness = await createToolHarness({ paths: "./tools", cwd });
    await expect(harness.call("word_cuont", { text: 42 })).rejects.toThrow(
      'harness.call: the session has no tool "word_cuont" (it has "word_count").',
    );
    // The tool it has still answers as a model would see it.
    const result = await harness.call("word_count", { text: 42 });
    expect(result.isError).toBe(true);
    await harness.dispose();
  });

  it("names what the load said when the tool is missing because a path does not exist", async () => {
    const cwd = await folder({});
    const harness = await createToolHarness({ paths: "./nowhere", cwd });
    await expect(harness.call("word_count", {})).rejects.toThrow(
      `harness.call: the session has no tool "word_count" (it has none). The load said:\n  E_DISCOVERY: Tool path ${join(cwd, "nowhere")} ("./nowhere") does not exist.`,
    );
    await harness.dispose();
  });

  it("keeps a module that gives no tool on purpose testable: W_NO_TOOLS, no throw", async () => {
    const cwd = await folder({ "tools/keyless.ts": "export default () => [];" });
    const harness = await createToolHarness({ paths: "./tools", cwd });
    expect(harness.tools).toEqual([]);
    expect(harness.diagnostics.map(({ code }) => code)).toEqual(["W_NO_TOOLS"]);
    await harness.dispose();
  });
});
