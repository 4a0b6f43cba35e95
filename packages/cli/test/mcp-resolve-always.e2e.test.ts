// End to end: the BUILT `tooldock mcp --resolve always|pending` over real stdio, driven by a client
// that reads the tool list once (as `@ai-sdk/mcp`, Gemini's `mcpToTool` and Anthropic's
// `mcpTools` do) and never calls a tool it did not see listed. Build first: `pnpm build`.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, examplesDir, runCli, tempDir } from "./cli-process.js";
import { startMcpChild } from "./mcp-child.js";
import { textOf } from "./mcp-in-memory.js";

const tools = join(examplesDir, "tools/batch-rename-preview.ts");
const renameArgs = { files: ["draft-a.txt", "draft-b.txt"], find: "draft", replace: "final", regex: false };

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts the server with `flags`, lists the tools once, and calls only the names it saw. */
async function cachingClient(flags: string[]) {
  const work = await tempDir({ "draft-a.txt": "a", "draft-b.txt": "b" });
  cleanups.push(work.remove);
  const child = await startMcpChild([...flags, tools], work.path);
  cleanups.push(async () => {
    child.kill();
    await child.exited;
  });
  const listed = (await child.client.listTools()).tools.map((tool) => tool.name);
  const call = async (name: string, args: Record<string, unknown>) => {
    if (!listed.includes(name)) throw new Error(`NoSuchToolError: ${name}`);
    return child.client.callTool({ name, arguments: args });
  };
  return { listed, call, files: async () => (await readdir(work.path)).sort() };
}

describe("tooldock mcp --resolve", () => {
  it("by default (always) the client that caches the list sees resolve and can apply", async () => {
    const client = await cachingClient([]);
    expect(client.listed.sort()).toEqual(["batch_rename_preview", "resolve"]);
    const preview = await client.call("batch_rename_preview", renameArgs);
    expect(textOf(preview)).toContain("final-a.txt");
    expect(await client.files()).toEqual(["draft-a.txt", "draft-b.txt"]);
    const applied = await client.call("resolve", { action: "apply", reason: "names look right" });
    expect(applied.isError).toBeFalsy();
    expect(await client.files()).toEqual(["final-a.txt", "final-b.txt"]);
  });

  it("with --resolve pending, the caching client never sees resolve and cannot apply", async () => {
    const client = await cachingClient(["--resolve", "pending"]);
    expect(client.listed).toEqual(["batch_rename_preview"]);
    await client.call("batch_rename_preview", renameArgs);
    await expect(client.call("resolve", { action: "apply", reason: "go" })).rejects.toThrow(
      /NoSuchToolError/,
    );
    expect(await client.files()).toEqual(["draft-a.txt", "draft-b.txt"]);
  });

  it("--resolve always, given explicitly, lists resolve from the start as the default does", async () => {
    const client = await cachingClient(["--resolve", "always"]);
    expect(client.listed.sort()).toEqual(["batch_rename_preview", "resolve"]);
  });

  it("rejects another value as bad usage, naming the choices", async () => {
    const run = await runCli(["mcp", "--resolve", "sometimes", tools]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--resolve must be one of always, pending");
    expect(run.stdout).toBe("");
  });

  it("is described in `tooldock mcp --help`", async () => {
    const run = await runCli(["mcp", "--help"]);
    expect(run.stdout).toContain("--resolve always|pending");
    // The details paragraphs are wrapped into lines: compare them with their line breaks as spaces.
    const help = run.stdout.replace(/\s+/g, " ");
    expect(help).toContain("`resolve` is listed from the start (--resolve always, the default)");
    expect(help).toContain("with nothing pending it changes nothing and answers with an error");
    expect(help).toContain("--resolve pending lists it only while an action is pending");
    expect(help).toContain("only while an action is pending (default always)");
    expect(help).not.toContain("default pending");
  });
});
