// End to end: `--isolate` on the BUILT `tooldock call`, `list` and `mcp` (build first: pnpm build).
// The tools run in the loader's tool host, a child Node process under Node's permission model:
// a tool cannot read a secret outside the project, and list and mcp serve the tool host's tools.
//
// Seen to fail without isolation: TOOLDOCK_TEST_ISOLATION=off runs the same tests without
// --isolate (the secret is then printed, and the tools run in the CLI's own process).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, runCli, tempDir } from "./cli-process.js";
import { READ_FILE, WHERE } from "./isolation-tools.js";
import { startMcpChild } from "./mcp-child.js";
import { connectHttpClient, startMcpHttpChild } from "./mcp-http-child.js";
import { textOf } from "./mcp-in-memory.js";

const IN_PROCESS = process.env.TOOLDOCK_TEST_ISOLATION === "off";
const ISOLATE = IN_PROCESS ? [] : ["--isolate"];

const SECRET = "tooldock-e2e-secret-4f1c";

beforeAll(assertBuilt);

let project: Awaited<ReturnType<typeof tempDir>>;
let outside: Awaited<ReturnType<typeof tempDir>>;
const stops: Array<() => void> = [];

beforeEach(async () => {
  project = await tempDir({ "tools/read-file.mjs": READ_FILE, "tools/where.mjs": WHERE });
  outside = await tempDir({ "secret.txt": SECRET });
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await project.remove();
  await outside.remove();
});

describe(`tooldock call ${ISOLATE.join(" ")} of a tool that reads a secret outside the project`, () => {
  it("gets an error result, not the secret", async () => {
    const secretPath = join(outside.path, "secret.txt");
    const run = await runCli(
      ["call", "read_file", "tools", "--args", JSON.stringify({ path: secretPath }), "--json", ...ISOLATE],
      { cwd: project.path },
    );
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(run.code).toBe(1);
    const { result } = JSON.parse(run.stdout) as { result: { isError?: boolean } };
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toMatch(/ERR_ACCESS_DENIED|Access to this API has been restricted/);
  });

  it("reads what --allow-read grants", async () => {
    const secretPath = join(outside.path, "secret.txt");
    const run = await runCli(
      ["call", "read_file", "tools", "--args", JSON.stringify({ path: secretPath }), "--json"].concat(
        IN_PROCESS ? [] : ["--isolate", "--allow-read", outside.path],
      ),
      { cwd: project.path },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(SECRET);
  });
});

describe(`tooldock list ${ISOLATE.join(" ")}`, () => {
  it("lists the tools the tool host loaded", async () => {
    const run = await runCli(["list", "tools", "--json", ...ISOLATE], { cwd: project.path });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { tools: Array<{ name: string; description: string }> };
    expect(report.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["read_file", "Returns a file's text."],
      ["where_am_i", "sandboxed: true"],
    ]);
  });
});

describe(`tooldock mcp ${ISOLATE.join(" ")}`, () => {
  it("serves the tool host's tools over stdio: a call runs there, its pending action is applied there", async () => {
    const server = await startMcpChild(["tools", ...ISOLATE], project.path);
    stops.push(server.kill);
    const { client } = server;
    // `resolve` is listed from the start (the default, --resolve always).
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "resolve",
      "read_file",
      "where_am_i",
    ]);
    const called = await client.callTool({ name: "where_am_i", arguments: {} });
    const where = JSON.parse(textOf(called).split("\n")[0] ?? "") as { sandboxed: boolean; pid: number };
    expect(where.sandboxed).toBe(true);
    const applied = await client.callTool({
      name: "resolve",
      arguments: { action: "apply", reason: "test" },
    });
    expect(applied.isError).toBeUndefined();
    expect(await readFile(join(project.path, "applied.txt"), "utf8")).toBe(String(where.pid));
    const secret = await client.callTool({
      name: "read_file",
      arguments: { path: join(outside.path, "secret.txt") },
    });
    expect(secret.isError).toBe(true);
    expect(textOf(secret)).not.toContain(SECRET);
    server.closeStdin();
    expect(await server.exited).toBe(0);
  }, 60_000);

  it("serves the tool host's tools over --http", async () => {
    const server = await startMcpHttpChild(["tools", ...ISOLATE], project.path);
    stops.push(server.kill);
    const { client } = await connectHttpClient(server.url);
    const called = await client.callTool({ name: "where_am_i", arguments: {} });
    expect(JSON.parse(textOf(called).split("\n")[0] ?? "")).toMatchObject({ sandboxed: true });
    await client.close();
    server.closeStdin();
    expect(await server.exited).toBe(0);
  }, 60_000);
});
