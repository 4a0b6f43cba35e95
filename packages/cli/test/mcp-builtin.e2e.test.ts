// End to end: the BUILT `tooldock mcp --builtin ast_edit`, over stdio and over HTTP with the
// SDK's clients: ast_edit's preview is a pending action that `resolve` applies or discards.
// Build first: `pnpm build`.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "./cli-process.js";
import { startMcpChild } from "./mcp-child.js";
import { connectHttpClient, startMcpHttpChild } from "./mcp-http-child.js";
import { textOf } from "./mcp-in-memory.js";

const SOURCE = "console.log(1);\nconsole.log(2);\n";
const rewrite = { ops: [{ pat: "console.log($A)", out: "logger.info($A)" }], path: "src" };

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A project with src/a.ts and a private state folder for ast_edit's journals (never the user's). */
async function project() {
  const work = await tempDir({ "src/a.ts": SOURCE, "state/.keep": "" });
  cleanups.push(work.remove);
  return { cwd: work.path, env: { TOOLDOCK_STATE_DIR: join(work.path, "state") } };
}

describe("tooldock mcp --builtin ast_edit", () => {
  it("over stdio, with no tool path: previews, changes nothing until resolve applies", async () => {
    const { cwd, env } = await project();
    const server = await startMcpChild(["--builtin", "ast_edit"], cwd, env);
    cleanups.push(async () => {
      server.kill();
      await server.exited;
    });
    const { client } = server;
    // `resolve` is listed from the start (the default, --resolve always).
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "ast_edit"]);
    const preview = await client.callTool({ name: "ast_edit", arguments: rewrite });
    expect(preview.isError).toBeFalsy();
    expect(textOf(preview)).toContain("+logger.info(1);");
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe(SOURCE);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "ast_edit"]);
    const applied = await client.callTool({ name: "resolve", arguments: { action: "apply", reason: "ok" } });
    expect(applied.isError).toBeFalsy();
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe("logger.info(1);\nlogger.info(2);\n");
    expect(server.stderr()).toContain("serving 0 tools from 0 modules and ast_edit on stdio");
  });

  it("over HTTP, each session's preview is its own; discard leaves the file as it was", async () => {
    const { cwd, env } = await project();
    const server = await startMcpHttpChild(["--builtin", "ast_edit"], cwd, env);
    cleanups.push(async () => {
      server.kill();
      await server.exited;
    });
    const a = await connectHttpClient(server.url);
    const b = await connectHttpClient(server.url);
    cleanups.push(
      () => a.client.close(),
      () => b.client.close(),
    );
    await a.client.callTool({ name: "ast_edit", arguments: rewrite });
    // B lists resolve from the start (the default, --resolve always), but A's preview is not
    // B's: B's session has nothing pending, so its resolve changes nothing.
    expect((await b.client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "ast_edit"]);
    const fromB = await b.client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "mine?" },
    });
    expect(fromB.isError).toBe(true);
    expect(textOf(fromB)).toContain("No pending action to resolve.");
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe(SOURCE);
    const discarded = await a.client.callTool({
      name: "resolve",
      arguments: { action: "discard", reason: "no" },
    });
    expect(discarded.isError).toBeFalsy();
    expect(await readFile(join(cwd, "src/a.ts"), "utf8")).toBe(SOURCE);
  });

  it("--builtin with an unknown name is bad usage", async () => {
    const { cwd } = await project();
    const run = await runCli(["mcp", "--builtin", "bash"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--builtin must be one of ast_edit");
  });
});
