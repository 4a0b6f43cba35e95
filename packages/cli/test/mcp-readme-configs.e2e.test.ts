// The client configurations of the CLI README's "MCP client configurations" section work as
// written: each JSON block is read from the README and the SDK's client connects the way it
// says, with the BUILT CLI in place of `npx -y @tooldock/cli`. Build first: `pnpm build`.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, cliBin, repoRoot, tempDir, WHERE_TOOL } from "./cli-process.js";
import { connectHttpClient, startMcpHttpChild } from "./mcp-http-child.js";

interface ServerEntry {
  command?: string;
  args?: string[];
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** The README section's fenced blocks of one language, in order. */
function sectionBlocks(language: string): string[] {
  const readme = readFileSync(join(repoRoot, "packages/cli/README.md"), "utf8");
  const start = readme.indexOf("### MCP client configurations");
  const end = readme.indexOf("\n### ", start + 1);
  const section = readme.slice(start, end);
  const fence = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g");
  return [...section.matchAll(fence)].map((match) => match[1] ?? "");
}

function entry(json: string): ServerEntry {
  const config = JSON.parse(json) as { mcpServers: Record<string, ServerEntry> };
  const server = config.mcpServers.tooldock;
  if (!server) throw new Error("no mcpServers.tooldock entry");
  return server;
}

/** How the README's JSON names the variable (Claude Code expands it in .mcp.json). */
const TOKEN_PLACEHOLDER = ["$", "{TOOLDOCK_MCP_TOKEN}"].join("");

const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(() => {
  assertBuilt();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the CLI README's MCP client configurations", () => {
  it("has one stdio and one HTTP configuration", () => {
    const [stdio, http, ...more] = sectionBlocks("json").map(entry);
    expect(more).toEqual([]);
    expect(stdio?.command).toBe("npx");
    expect(stdio?.args?.slice(0, 3)).toEqual(["-y", "@tooldock/cli", "mcp"]);
    expect(http).toMatchObject({ type: "http", url: "http://127.0.0.1:7717/mcp" });
  });

  it("stdio: a client starting it in another folder gets the project's tools, run in the project", async () => {
    const work = await tempDir({ "project/tools/where.mjs": WHERE_TOOL });
    cleanups.push(work.remove);
    const clientFolder = join(work.path, "client");
    await mkdir(clientFolder);
    const stdio = entry(sectionBlocks("json")[0] ?? "");
    const project = join(work.path, "project");
    const args = (stdio.args ?? []).map((arg) => (arg === "/absolute/path/to/your/project" ? project : arg));
    expect(args.slice(0, 2)).toEqual(["-y", "@tooldock/cli"]);
    const client = new Client({ name: "readme-stdio", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliBin, ...args.slice(2)],
        cwd: clientFolder,
        env: { ...(process.env as Record<string, string>), NO_COLOR: "1" },
        stderr: "ignore",
      }),
    );
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: "where", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: project }]);
  });

  it("HTTP: the url and the Authorization header (with TOOLDOCK_MCP_TOKEN filled in) reach the server", async () => {
    const work = await tempDir({ "tools/where.mjs": WHERE_TOOL });
    cleanups.push(work.remove);
    const [command] = sectionBlocks("sh");
    expect(command).toContain("npx -y @tooldock/cli mcp --http ./tools");
    const token = "readme-token-1234";
    const server = await startMcpHttpChild(["./tools"], work.path, { TOOLDOCK_MCP_TOKEN: token });
    cleanups.push(async () => {
      server.kill();
      await server.exited;
    });
    // The start line the README shows, with the port this run got.
    expect(command).toContain("# tooldock mcp: serving 2 tools from 2 modules on http://127.0.0.1:7717/mcp");
    expect(server.stderr()).toMatch(
      /tooldock mcp: serving 1 tool from 1 module on http:\/\/127\.0\.0\.1:\d+\/mcp/,
    );

    const http = entry(sectionBlocks("json")[1] ?? "");
    const url = new URL(http.url ?? "");
    url.port = new URL(server.url).port;
    const headers = Object.fromEntries(
      Object.entries(http.headers ?? {}).map(([name, value]) => [
        name,
        value.replace(TOKEN_PLACEHOLDER, token),
      ]),
    );
    const { client } = await connectHttpClient(url.href, headers);
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: "where", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: work.path }]);
  });
});
