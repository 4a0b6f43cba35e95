import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { assertBuilt, tempDir, WHERE_TOOL } from "../cli-process.js";
import { outputIncludes, startInspectProcess } from "../inspect-browser.js";
import { startMcpChild } from "../mcp-child.js";
import { startMcpHttpChild } from "../mcp-http-child.js";

// server-of-an-empty-path-says-nothing: `tooldock mcp tools extra-tools`, `extra-tools` emptied
// by a bad merge (or mistyped into a folder that exists), served the other path's tools and
// never said that `extra-tools` held none; `tooldock mcp empty` said "serving 0 tools from 0
// modules" and not where it looked or what counts as a module. `list` says both on stderr;
// the servers now do too (and keep serving: with --watch the folder may fill later).
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(assertBuilt);
beforeEach(async () => {
  work = await tempDir({ "tools/where.mjs": WHERE_TOOL, "extra-tools/README.md": "moved\n" });
});
afterEach(async () => {
  await work.remove();
});

describe("server-of-an-empty-path-says-nothing", { timeout: 30_000 }, () => {
  it("mcp over stdio names the path that holds no module, and serves the others", async () => {
    const server = await startMcpChild(["tools", "extra-tools"], work.path);
    onTestFinished(server.kill);
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("where");
    await server.stderrIncludes("No tool module was found in extra-tools, one of the paths given");
    server.closeStdin();
    expect(await server.exited).toBe(0);
  });

  it("mcp over stdio says where it looked when it serves no tool at all", async () => {
    const server = await startMcpChild(["extra-tools"], work.path);
    onTestFinished(server.kill);
    await server.client.listTools();
    await server.stderrIncludes("No tool module was found in extra-tools, so there is no tool to serve.");
    await server.stderrIncludes("each subfolder's index file are modules");
    server.closeStdin();
    expect(await server.exited).toBe(0);
  });

  it("mcp --http says it too", async () => {
    const server = await startMcpHttpChild(["tools", "extra-tools"], work.path);
    onTestFinished(server.kill);
    expect(server.stderr()).toContain("No tool module was found in extra-tools, one of the paths given");
  });

  it("inspect says it too", async () => {
    const server = await startInspectProcess(work.path, ["extra-tools"]);
    onTestFinished(async () => {
      expect(await server.stop()).toBe(0);
    });
    // Printed on stderr, the URL on stdout: the two pipes may arrive in either order.
    const text = "No tool module was found in extra-tools, so there is no tool to serve.";
    await outputIncludes(server, text);
    expect(server.output()).toContain(text);
  });
});
