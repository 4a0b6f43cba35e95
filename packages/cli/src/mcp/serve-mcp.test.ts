import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { describe, expect, it } from "vitest";
import { memoryPipes, textOf } from "../../test/mcp-in-memory.js";
import { serveMcp } from "./serve-mcp.js";

const fixtures = fileURLToPath(new URL("../../test/fixtures/mcp/", import.meta.url));
const examplesTools = fileURLToPath(new URL("../../../examples/tools/", import.meta.url));

/** serveMcp on in-memory pipes, with the SDK's client on the other ends. */
async function start(
  paths: string[],
  options: { cwd?: string; signal?: AbortSignal; watch?: boolean; isolate?: boolean } = {},
) {
  const { toServer, fromServer, stderr, stderrText } = memoryPipes();
  const served = serveMcp({
    paths,
    cwd: options.cwd ?? fixtures,
    stdin: toServer,
    stdout: fromServer,
    stderr,
    signal: options.signal,
    watch: options.watch === true,
    ...(options.isolate === true ? { isolation: { mode: "process" as const } } : {}),
  });
  const client = new Client({ name: "unit", version: "1.0.0" });
  // A stdio transport reading the server's stdout and writing its stdin is a client transport.
  await client.connect(new StdioServerTransport(fromServer, toServer));
  let protocolText = "";
  fromServer.on("data", (chunk: Buffer) => {
    protocolText += chunk.toString();
  });
  return { client, served, toServer, stderr: stderrText, protocol: () => protocolText };
}

describe("serveMcp", () => {
  it("serves the modules that load, reports the others on stderr, and stops when stdin ends", async () => {
    const server = await start(["broken", "noisy"]);
    // `resolve` is listed from the start (the default, resolve: "always"); it is not a loaded tool.
    expect((await server.client.listTools()).tools.map((tool) => tool.name)).toEqual(["resolve", "noisy"]);
    expect(textOf(await server.client.callTool({ name: "noisy", arguments: {} }))).toBe("quiet result");
    server.toServer.end();
    const result = await server.served;
    expect(result.tools).toEqual(["noisy"]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["E_COMPILE"]);
    expect(server.stderr()).toMatch(/error E_COMPILE .*does-not-compile\.ts/);
    expect(server.stderr()).toContain("[info] noisy: logger line");
    expect(server.stderr()).toContain("tooldock mcp: serving 1 tool from 2 modules on stdio");
    for (const line of server.protocol().trim().split("\n")) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    }
  });

  it("stops on abort and discards what is pending through its reject", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "tooldock-serve-mcp-"));
    try {
      await writeFile(join(cwd, "old-name.txt"), "x");
      const controller = new AbortController();
      const server = await start([examplesTools], { cwd, signal: controller.signal });
      const staged = await server.client.callTool({
        name: "batch_rename_preview",
        arguments: { files: ["old-name.txt"], find: "old", replace: "new", regex: false },
      });
      expect(textOf(staged)).toMatch(/nothing has changed yet/i);
      controller.abort();
      await server.served;
      expect(server.stderr()).toContain('discarding 1 pending action: Rename 1 file: "old" → "new"');
      expect(await readdir(cwd)).toEqual(["old-name.txt"]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  // mcp --watch --isolate (and inspect --isolate) closed the watcher first, which ended the tool
  // host: the pending action went with it, its reject never ran, and nothing was said.
  it.each([
    ["--isolate", false],
    ["--watch --isolate", true],
  ])(
    "watch-isolate-shutdown-drops-pending-rejects: %s discards what is pending through its reject",
    async (_flags, watch) => {
      const cwd = await mkdtemp(join(tmpdir(), "tooldock-serve-mcp-reject-"));
      try {
        await writeFile(join(cwd, "stage.ts"), STAGER);
        const controller = new AbortController();
        const server = await start([join(cwd, "stage.ts")], {
          cwd,
          signal: controller.signal,
          watch,
          isolate: true,
        });
        expect(textOf(await server.client.callTool({ name: "stage", arguments: {} }))).toMatch(/^staged/);
        controller.abort();
        await server.served;
        expect(server.stderr()).toContain("discarding 1 pending action: Write a file");
        expect(await readFile(join(cwd, "rejected.txt"), "utf8")).toBe("rejected");
      } finally {
        await rm(cwd, { recursive: true, force: true });
      }
    },
  );
});

/** Stages an action whose reject writes `rejected.txt` into the working folder. */
const STAGER = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default (pi: any) => ({
  name: "stage",
  label: "Stage",
  description: "Stages an action",
  parameters: pi.typebox.Type.Object({}),
  async execute(_id: string, _params: unknown, _onUpdate: unknown, ctx: any) {
    ctx.pushPendingAction({
      label: "Write a file",
      async apply() { return { content: [{ type: "text", text: "applied" }] }; },
      async reject() { writeFileSync(join(ctx.cwd, "rejected.txt"), "rejected"); },
    });
    return { content: [{ type: "text", text: "staged" }] };
  },
});
`;
