// Attack: another user of this machine (uid 65534 in the report) reaches loopback too. With no
// token configured, `tooldock mcp --http --builtin ast_edit` served everyone who found the port,
// and they applied an edit to the server user's 0600 file. A `--token T` helped no more: every
// user reads it from the process list (/proc/<pid>/cmdline). Fix: a server always asks for a
// token, generated and printed on stderr when none is set; a token comes from
// $TOOLDOCK_MCP_TOKEN or a --token-file only its owner can read, never from the command line;
// --no-token is an explicit opt-out that warns.
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "../cli-process.js";
import { connectHttpClient, startMcpHttpChild } from "../mcp-http-child.js";
import { send } from "../mcp-http-in-process.js";

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(args: string[], env: Record<string, string>) {
  const work = await tempDir({});
  cleanups.push(work.remove);
  const server = await startMcpHttpChild(["--builtin", "ast_edit", ...args], work.path, env);
  cleanups.push(async () => {
    server.kill();
    await server.exited;
  });
  return { ...server, cwd: work.path };
}

describe("regression: another local user calls tooldock mcp --http without its token", () => {
  it("refuses them by default: the server makes a token, prints it, and serves only with it", async () => {
    const server = await serve([], { TOOLDOCK_MCP_TOKEN: "" });
    const printed = /"Authorization: Bearer ([A-Za-z0-9_-]{43})"/.exec(server.stderr());
    expect(printed, server.stderr()).not.toBeNull();
    const token = printed?.[1] as string;
    expect((await send(server.url, { token: null })).status).toBe(401);
    expect((await send(server.url, { token: "guess" })).status).toBe(401);
    const { client } = await connectHttpClient(server.url, { Authorization: `Bearer ${token}` });
    cleanups.push(() => client.close());
    // `resolve` is listed from the start (the default, --resolve always).
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "ast_edit"]);
  });

  it("never makes the same token twice", async () => {
    const tokens = [];
    for (let run = 0; run < 2; run += 1) {
      const server = await serve([], { TOOLDOCK_MCP_TOKEN: "" });
      tokens.push(/"Authorization: Bearer (\S+)"/.exec(server.stderr())?.[1]);
    }
    expect(tokens[0]).toEqual(expect.any(String));
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it("refuses a token on the command line, where other users can read it", async () => {
    const work = await tempDir({});
    cleanups.push(work.remove);
    const result = await runCli(["mcp", "--builtin", "ast_edit", "--http", "--token", "s3cret"], {
      cwd: work.path,
      env: { TOOLDOCK_MCP_TOKEN: "" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--token puts the secret on the command line");
    expect(result.stderr).toContain("--token-file");
  });

  it("takes a token file only its owner can read", async () => {
    const work = await tempDir({});
    cleanups.push(work.remove);
    const file = join(work.path, "token");
    await writeFile(file, "from-a-file\n");
    await chmod(file, 0o644);
    const open = await runCli(["mcp", "--builtin", "ast_edit", "--http", "--token-file", "token"], {
      cwd: work.path,
      env: { TOOLDOCK_MCP_TOKEN: "" },
    });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("can be read by other users (mode 644)");
    await chmod(file, 0o600);
    const server = await serve(["--token-file", file], { TOOLDOCK_MCP_TOKEN: "" });
    expect(server.stderr()).not.toContain("from-a-file");
    expect((await send(server.url, { token: null })).status).toBe(401);
    expect((await send(server.url, { token: "from-a-file" })).status).toBe(200);
  });

  it("serves without a token only when told so, and says who can then run the tools", async () => {
    const server = await serve(["--no-token"], { TOOLDOCK_MCP_TOKEN: "" });
    expect(server.stderr()).toContain(
      "warning: serving without a token (--no-token): every user of this machine",
    );
    expect((await send(server.url, { token: null })).status).toBe(200);
    const both = await runCli(["mcp", "--http", "--no-token"], {
      env: { TOOLDOCK_MCP_TOKEN: "set" },
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give one of $TOOLDOCK_MCP_TOKEN and --no-token, not both");
  });
});
