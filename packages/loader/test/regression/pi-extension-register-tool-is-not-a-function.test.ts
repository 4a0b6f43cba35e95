import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolHarness, type ToolHarness } from "../../src/testing/index.js";
import { testCacheDir } from "../helpers.js";

/**
 * Failure (every pi tool package published since January 2026): a pi extension registers its
 * tools with `pi.registerTool` instead of returning them, and lists itself under
 * `"pi": { "extensions": [...] }`. Tooldock's `pi` had no `registerTool`: 0 of 12 loaded, each
 * `E_FACTORY_THROW … pi.registerTool is not a function` with a hint blaming the author.
 */
const EXTENSION = `
import { Type } from "@sinclair/typebox";
export default function (pi) {
  pi.registerTool({
    name: "ext_echo",
    label: "Echo",
    description: "Says it back.",
    parameters: Type.Object({ said: Type.String() }),
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      return { content: [{ type: "text", text: params.said }], details: {} };
    },
  });
}
`;

let folder: string | undefined;
let harness: ToolHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

describe("a pi extension package", () => {
  it("loads the tools it registers, not E_FACTORY_THROW 'pi.registerTool is not a function'", async () => {
    folder = await realpath(await mkdtemp(join(tmpdir(), "tooldock-pi-extension-")));
    await mkdir(join(folder, "extensions"));
    await writeFile(join(folder, "extensions", "echo.ts"), EXTENSION);
    await writeFile(join(folder, "helper.ts"), 'throw new Error("a helper was imported");\n');
    await writeFile(
      join(folder, "package.json"),
      JSON.stringify({ name: "echo-extension", pi: { extensions: ["./extensions/echo.ts"] } }),
    );
    harness = await createToolHarness({
      paths: folder,
      cwd: folder,
      cacheDir: testCacheDir("pi-extension-regression"),
    });
    expect(harness.diagnostics).toEqual([]);
    expect(harness.tools.map(({ tool }) => tool.name)).toEqual(["ext_echo"]);
    const result = await harness.call("ext_echo", { said: "hello" });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
  });
});
