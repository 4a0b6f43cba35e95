// End to end: the BUILT `tooldock mcp` driven by `@ai-sdk/mcp`, a client that reads the tool
// list once (`client.tools()`) and hands the model that set: a tool missing from it cannot be
// called (the AI SDK answers `NoSuchToolError`). Build first: `pnpm build`.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, cliBin, examplesDir, tempDir } from "./cli-process.js";

const tools = join(examplesDir, "tools/batch-rename-preview.ts");
const renameArgs = { files: ["draft-a.txt", "draft-b.txt"], find: "draft", replace: "final", regex: false };

const cleanups: Array<() => Promise<void>> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The environment as strings (the per-run TMPDIR and cache folders of the test setup included). */
const environment = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

async function aiSdkClient(flags: string[]) {
  const work = await tempDir({ "draft-a.txt": "a", "draft-b.txt": "b" });
  cleanups.push(work.remove);
  const client: MCPClient = await createMCPClient({
    transport: new Experimental_StdioMCPTransport({
      command: process.execPath,
      args: [cliBin, "mcp", ...flags, tools],
      cwd: work.path,
      env: { ...environment(), NO_COLOR: "1" },
      stderr: "ignore",
    }),
  });
  cleanups.push(() => client.close());
  const toolSet = await client.tools();
  const files = async () => (await readdir(work.path)).sort();
  return { toolSet, files };
}

const options = (toolCallId: string) => ({ toolCallId, messages: [], context: {} });

describe("tooldock mcp with @ai-sdk/mcp (a client that caches the tool list)", () => {
  it("by default (always) the client that caches the list sees resolve and can apply", async () => {
    const { toolSet, files } = await aiSdkClient([]);
    expect(Object.keys(toolSet).sort()).toEqual(["batch_rename_preview", "resolve"]);
    expect(toolSet.resolve?.description).toMatch(/with nothing pending it changes nothing/);
    await toolSet.batch_rename_preview?.execute?.(renameArgs, options("c1"));
    expect(await files()).toEqual(["draft-a.txt", "draft-b.txt"]);
    const applied = await toolSet.resolve?.execute?.(
      { action: "apply", reason: "names look right" },
      options("c2"),
    );
    expect(applied).toMatchObject({ isError: false });
    expect(await files()).toEqual(["final-a.txt", "final-b.txt"]);
  });

  it("with --resolve pending, the caching client never sees resolve and cannot apply", async () => {
    const { toolSet, files } = await aiSdkClient(["--resolve", "pending"]);
    expect(Object.keys(toolSet)).toEqual(["batch_rename_preview"]);
    await toolSet.batch_rename_preview?.execute?.(renameArgs, options("c1"));
    expect(toolSet.resolve).toBeUndefined();
    expect(await files()).toEqual(["draft-a.txt", "draft-b.txt"]);
  });
});
